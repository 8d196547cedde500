"""Changing one's own account: the e-mail address (unique across accounts, case aside)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError


def email_set(*, user: User, email: str) -> None:
    email = email.strip().lower()
    if email and User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        raise ValidationError({"email": "Another account uses this address."})
    user.email = email
    user.save(update_fields=["email"])
