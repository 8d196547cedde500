"""The account page's API token form: a name, one of the user's workspaces, scopes (none: the user's own rights
there) and how long it lasts."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User

from research.models import ApiScope, Membership

LIFETIMES = [("30", "30 days"), ("90", "90 days"), ("365", "a year"), ("0", "no expiry")]


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, label="Name", help_text="What will use it, e.g. “nightly CRM enrichment”.")
    workspace = forms.ChoiceField(label="Workspace")
    scopes = forms.MultipleChoiceField(
        choices=ApiScope.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Scopes",
        help_text="None ticked: everything your role in the workspace allows (never more).",
    )
    days = forms.ChoiceField(choices=LIFETIMES, initial="90", label="Expires after")

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        mine = Membership.objects.filter(user=user).select_related("workspace").order_by("workspace__name")
        workspace = self.fields["workspace"]
        assert isinstance(workspace, forms.ChoiceField)
        workspace.choices = [(m.workspace.slug, m.workspace.name) for m in mine]

    def days_value(self) -> int | None:
        days = int(self.cleaned_data["days"])
        return days or None
