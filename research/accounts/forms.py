"""The account page's forms: the e-mail address that invitations and digests go to."""

from __future__ import annotations

from django import forms


class EmailForm(forms.Form):
    email = forms.EmailField(
        max_length=254,
        required=False,
        label="E-mail address",
        help_text="Digests of scheduled investigations you can read are sent here. Leave empty for none.",
    )
