"""Helpers shared by the views."""

from __future__ import annotations

from django import forms
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest


def user_of(request: HttpRequest) -> User:
    """The logged-in user (views that call this are behind ``login_required``)."""
    assert isinstance(request.user, User)
    return request.user


def is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def apply_errors(form: forms.Form, error: ValidationError) -> None:
    """Show a service's validation errors on the form, on their field when it has one."""
    for field, messages in error.message_dict.items():
        for message in messages:
            form.add_error(field if field in form.fields else None, message)
