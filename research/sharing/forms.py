"""The form that creates a share link: which run, for how long, a label."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.utils import timezone

from research.investigations.forms import RunChoiceField
from research.models import Run
from research.sharing.services import LABEL_MAX

EXPIRIES = {"never": None, "1": 1, "7": 7, "30": 30, "90": 90}


class SharedRunField(RunChoiceField):
    """Short enough for the select's width on a phone: only finished runs are offered, so no status."""

    def label_from_instance(self, obj: Run) -> str:
        return f"Run {obj.pk} · {obj.created_at:%Y-%m-%d}"


class ShareLinkForm(forms.Form):
    run = SharedRunField(queryset=Run.objects.none(), label="Run to share")
    expires = forms.ChoiceField(
        choices=[("7", "in 7 days"), ("1", "in 1 day"), ("30", "in 30 days"), ("90", "in 90 days"), ("never", "never")],
        label="Expires",
    )
    label = forms.CharField(required=False, max_length=LABEL_MAX, label="Label (who it is for)")
    include_internal = forms.BooleanField(
        required=False,
        label="Include internal sources",
        help_text="Our own deal notes, battlecards and CRM rows: left out unless you tick this.",
    )

    def __init__(self, *args: Any, runs: list[Run], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["run"]
        assert isinstance(field, RunChoiceField)
        field.queryset = Run.objects.filter(pk__in=[run.pk for run in runs]).order_by("-created_at", "-id")
        if runs and "run" not in self.initial:
            self.initial["run"] = runs[0].pk

    def expires_at(self) -> Any:
        days = EXPIRIES[self.cleaned_data["expires"]]
        return None if days is None else timezone.now() + timedelta(days=days)
