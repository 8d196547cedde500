"""Forms for workspace pages."""

from __future__ import annotations

from typing import Any

from django import forms

from research.models import Corpus, Role, RunTemplate, Workspace
from research.runs import services as limits


class WorkspaceForm(forms.Form):
    name = forms.CharField(max_length=120, label="Workspace name")
    description = forms.CharField(max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2}))


class MemberAddForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER, label="Role")


class CorpusForm(forms.Form):
    name = forms.CharField(max_length=120, label="Corpus name")
    description = forms.CharField(max_length=2000, required=False, label="Description (optional)")
    csv_mode = forms.ChoiceField(
        choices=[("row", "one document per row"), ("table", "one document per table (or per group)")],
        initial="row", required=False, label="CSV files",
    )  # fmt: skip
    csv_title_column = forms.CharField(max_length=200, required=False, label="CSV column that titles a row (optional)")
    csv_group_by = forms.CharField(max_length=200, required=False, label="CSV column to group rows by (table mode)")
    json_title_field = forms.CharField(
        max_length=200, initial="title", required=False, label="JSON field holding the title"
    )
    json_text_field = forms.CharField(
        max_length=200, initial="text", required=False, label="JSON field holding the text"
    )
    json_metadata_fields = forms.CharField(
        max_length=1000, required=False, label="JSON fields kept as metadata (comma-separated)"
    )

    def parse_options(self) -> dict[str, object]:
        """The corpus's parsing options from the cleaned form (blank optional fields left out)."""
        data = self.cleaned_data
        options: dict[str, object] = {
            "csv_mode": data["csv_mode"] or "row",
            "json_title_field": data["json_title_field"].strip() or "title",
            "json_text_field": data["json_text_field"].strip() or "text",
        }
        for key in ("csv_title_column", "csv_group_by"):
            if data[key].strip():
                options[key] = data[key].strip()
        fields = [name.strip() for name in data["json_metadata_fields"].split(",") if name.strip()]
        if fields:
            options["json_metadata_fields"] = fields
        return options


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


class RunForm(forms.Form):
    """Start a research run: the question, the corpora of this workspace to search, and the run's limits."""

    question = forms.CharField(
        max_length=limits.QUESTION_MAX, widget=forms.Textarea(attrs={"rows": 3}), label="Question"
    )
    corpora = forms.ModelMultipleChoiceField(
        queryset=Corpus.objects.none(), widget=forms.CheckboxSelectMultiple, label="Corpora to search"
    )
    template = forms.ChoiceField(choices=RunTemplate.choices, initial=RunTemplate.QUESTION, label="Template")
    rollouts = forms.IntegerField(
        min_value=limits.ROLLOUTS[0], max_value=limits.ROLLOUTS[1], initial=limits.DEFAULT_ROLLOUTS,
        label="Rollouts (run in parallel, rankings fused)",
    )  # fmt: skip
    budget = forms.IntegerField(
        min_value=limits.BUDGET[0], max_value=limits.BUDGET[1], initial=limits.DEFAULT_BUDGET,
        label="Token budget per rollout",
    )  # fmt: skip
    max_turns = forms.IntegerField(
        min_value=limits.MAX_TURNS[0], max_value=limits.MAX_TURNS[1], initial=limits.DEFAULT_MAX_TURNS,
        label="Maximum turns per rollout",
    )  # fmt: skip

    def __init__(self, *args: Any, workspace: Workspace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        corpora = self.fields["corpora"]
        assert isinstance(corpora, forms.ModelMultipleChoiceField)
        corpora.queryset = Corpus.objects.filter(workspace=workspace).order_by("name", "id")
        if not self.is_bound:  # a new run searches every corpus of the workspace unless told otherwise
            self.initial.setdefault("corpora", [corpus.pk for corpus in corpora.queryset])
