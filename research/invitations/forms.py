"""Forms of invitations: an owner's invitation, and the account an invited person creates."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from research.models import Role


class InviteForm(forms.Form):
    email = forms.EmailField(max_length=254, label="E-mail address")
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER, label="Role")


class SignupForm(UserCreationForm[User]):
    """Username and password twice (Django's password validators apply); the e-mail is the invitation's."""
