"""Forms of the workspace pages: a new workspace, its ICP profile."""

from __future__ import annotations

from django import forms


class WorkspaceForm(forms.Form):
    name = forms.CharField(max_length=120, label="Workspace name")
    description = forms.CharField(max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2}))


PLACEHOLDER = "Between 50 and 500 employees | 2\nHeadquartered in the EU\nRuns on Kubernetes"


class IcpForm(forms.Form):
    criteria = forms.CharField(
        required=False,
        max_length=6000,
        widget=forms.Textarea(
            attrs={
                "rows": 6,
                "placeholder": "Between 50 and 500 employees | 2\nHeadquartered in the EU\nRuns on Kubernetes",
            }
        ),
        label="Criteria (one a line; an optional weight after '|')",
    )
