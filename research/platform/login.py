"""The login forms of the site and of the admin, both throttled (research/platform/throttle.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from research.platform.throttle import login_failed, login_lockout, login_succeeded


def _throttled(form: AuthenticationForm, clean: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Refuse a locked-out username or address before checking the password; count each failure."""
    username, password = form.cleaned_data.get("username"), form.cleaned_data.get("password")
    if not username or not password:
        return clean()
    address = form.request.META.get("REMOTE_ADDR") if form.request is not None else None
    lockout = login_lockout(username=username, address=address)
    if lockout is not None:
        raise ValidationError(lockout.message(), code="throttled")
    try:
        data = clean()
    except ValidationError:
        if form.get_user() is None:  # wrong credentials (not a refused inactive account with the right password)
            lockout = login_failed(username=username, address=address)
            if lockout is not None:
                raise ValidationError(lockout.message(), code="throttled") from None
        raise
    login_succeeded(username=username)
    return data


class LoginForm(AuthenticationForm):
    def clean(self) -> dict[str, Any]:
        return _throttled(self, super().clean)


class AdminLoginForm(AdminAuthenticationForm):
    def clean(self) -> dict[str, Any]:
        return _throttled(self, super().clean)
