"""The run page's edit forms (the services check what they name against the run's report)."""

from __future__ import annotations

from django import forms

from research.edits.services import TEXT_MAX

KEY_MAX = 64


class StrikeForm(forms.Form):
    key = forms.CharField(max_length=KEY_MAX)
    reason = forms.CharField(max_length=TEXT_MAX, required=False)


class PinForm(forms.Form):
    key = forms.CharField(max_length=KEY_MAX)
    facet = forms.CharField(max_length=80)


class NoteForm(forms.Form):
    facet = forms.CharField(max_length=80, required=False)
    text = forms.CharField(max_length=TEXT_MAX, required=False)


class OverrideForm(forms.Form):
    criterion = forms.CharField(max_length=200)
    verdict = forms.CharField(max_length=10)
    note = forms.CharField(max_length=TEXT_MAX, required=False)
