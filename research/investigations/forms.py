"""Investigation forms: save a run, edit title/notes/tags, filter the list, share, compare two runs."""

from __future__ import annotations

from typing import Any

from django import forms

from research.investigations.services import NOTES_MAX, TITLE_MAX
from research.models import Investigation, Membership, Run, RunTemplate, ShareRole, Visibility


class SaveRunForm(forms.Form):
    """Save a run as a new investigation (a title) or add it to one the member may edit."""

    title = forms.CharField(required=False, max_length=TITLE_MAX, label="Save as a new investigation, titled")
    investigation = forms.ModelChoiceField(
        queryset=Investigation.objects.none(), required=False, label="…or add it to", empty_label="(a new one)"
    )

    def __init__(self, *args: Any, choices: list[Investigation], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["investigation"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Investigation.objects.filter(pk__in=[inv.pk for inv in choices]).order_by("title")


class InvestigationForm(forms.Form):
    title = forms.CharField(max_length=TITLE_MAX * 2, label="Title", strip=False)  # the service says what is wrong
    tags = forms.CharField(required=False, label="Tags (comma-separated)")
    notes = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "data-limit": NOTES_MAX}),
        label="Notes (Markdown)",
        strip=False,
    )


class FilterForm(forms.Form):
    q = forms.CharField(required=False, label="Search titles, tags and notes")
    template = forms.ChoiceField(required=False, choices=[("", "Any template"), *RunTemplate.choices])
    owner = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label="Author")
    archived = forms.BooleanField(required=False, label="Archived")
    sort = forms.ChoiceField(
        required=False,
        choices=[("activity", "Last activity"), ("title", "Title"), ("created", "Newest first")],
        label="Sort by",
    )

    def __init__(self, *args: Any, owners: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["owner"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "Anyone"), *owners]


class ShareForm(forms.Form):
    visibility = forms.ChoiceField(choices=Visibility.choices, widget=forms.RadioSelect, label="Who can read it")
    workspace_role = forms.ChoiceField(choices=ShareRole.choices, label="Everyone in the workspace is")

    def __init__(self, *args: Any, members: list[Membership], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.members = members
        for member in members:
            self.fields[f"member_{member.user_id}"] = forms.ChoiceField(
                choices=[("", "No access"), *ShareRole.choices], required=False, label=member.user.get_username()
            )

    def member_fields(self) -> list[forms.BoundField]:
        return [self[f"member_{member.user_id}"] for member in self.members]

    def chosen(self) -> dict[int, str]:
        return {
            member.user_id: role
            for member in self.members
            if (role := self.cleaned_data.get(f"member_{member.user_id}"))
        }


class RunChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Run) -> str:
        return f"Run {obj.pk} · {obj.created_at:%Y-%m-%d %H:%M} · {obj.get_status_display().lower()}"


class CompareForm(forms.Form):
    older = RunChoiceField(queryset=Run.objects.none(), label="Compare")
    newer = RunChoiceField(queryset=Run.objects.none(), label="with")

    def __init__(self, *args: Any, runs: list[Run], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("older", "newer"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = Run.objects.filter(pk__in=[run.pk for run in runs])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("older") is not None and data.get("older") == data.get("newer"):
            self.add_error("newer", "Choose two different runs.")
        return data
