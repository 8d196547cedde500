"""Forms for workspace pages."""

from __future__ import annotations

from typing import Any

from django import forms

from research.models import Role


class WorkspaceForm(forms.Form):
    name = forms.CharField(max_length=120, label="Workspace name")
    description = forms.CharField(max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2}))


class MemberAddForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER, label="Role")


class CorpusForm(forms.Form):
    name = forms.CharField(max_length=120, label="Corpus name")
    description = forms.CharField(max_length=2000, required=False, label="Description (optional)")


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """A file field that accepts several files (Django's documented recipe)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)] if data else []


class UploadForm(forms.Form):
    upload = MultipleFileField(
        label="Files or .zip archives",
        help_text="Text, Markdown, HTML, PDF, DOCX, e-mail (.eml, .mbox), CSV, JSON/JSONL, or a .zip of them.",
    )
