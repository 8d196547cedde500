"""Forms of the workspace pages: a new workspace, a new member."""

from __future__ import annotations

from django import forms

from research.models import Role


class WorkspaceForm(forms.Form):
    name = forms.CharField(max_length=120, label="Workspace name")
    description = forms.CharField(max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2}))


class MemberAddForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER, label="Role")
