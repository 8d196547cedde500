"""API tokens: created for one workspace of their user with some scopes and an expiry, shown once, revoked by their
user; a token is honoured while it is unexpired and unrevoked, its user active and still a member of its workspace,
and only within what that member's role allows (``Access.allows``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F, QuerySet
from django.utils import timezone

from research.api.keys import key_digest, key_hint, key_new, key_well_formed
from research.models import ApiScope, ApiToken, Membership

WRITE_SCOPES = frozenset({ApiScope.RUNS_WRITE, ApiScope.CORPORA_WRITE})
MAX_DAYS = 3650
NAME_MAX = 100
TOUCH_EVERY = timedelta(minutes=1)  # last_used_at is written at most this often per token


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    key: str  # shown once; only its digest is stored


@dataclass(frozen=True)
class Access:
    """Who a request's token speaks for, and what it may do."""

    token: ApiToken
    membership: Membership

    def allows(self, scope: str) -> bool:
        """The token's scopes (none: all) within the member's role (a viewer writes nothing)."""
        if scope in WRITE_SCOPES and not self.membership.can_edit:
            return False
        return not self.token.scopes or scope in self.token.scopes


def token_create(
    *, user: User, workspace_slug: str, name: str, scopes: Sequence[str] = (), days: int | None = 90
) -> NewToken:
    """A new token of ``user`` for their workspace ``workspace_slug``; ``days`` until it expires (None: never)."""
    errors: dict[str, str] = {}
    membership = (
        Membership.objects.select_related("workspace").filter(user=user, workspace__slug=workspace_slug).first()
    )
    if membership is None:
        errors["workspace"] = f"You are not a member of a workspace “{workspace_slug[:80]}”."
    name = name.strip()
    if not name or len(name) > NAME_MAX:
        errors["name"] = f"Name the token (at most {NAME_MAX} characters), e.g. what will use it."
    unknown = sorted(set(scopes) - set(ApiScope.values))
    if unknown:
        errors["scopes"] = f"Unknown scope {', '.join(unknown)} (known: {', '.join(ApiScope.values)})."
    if days is not None and not 1 <= days <= MAX_DAYS:
        errors["days"] = f"A token lasts between 1 and {MAX_DAYS:,} days."
    if errors or membership is None:
        raise ValidationError(errors)
    key = key_new()
    token = ApiToken.objects.create(
        user=user,
        workspace=membership.workspace,
        name=name,
        scopes=sorted(set(scopes)),
        token_sha256=key_digest(key),
        hint=key_hint(key),
        expires_at=timezone.now() + timedelta(days=days) if days is not None else None,
    )
    return NewToken(token, key)


def token_revoke(*, token: ApiToken) -> None:
    """Stop ``token`` at once (revoking it twice changes nothing)."""
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def token_of(*, user: User, token_id: int) -> ApiToken:
    """One of ``user``'s tokens (PermissionDenied for anyone else's: not theirs to know of)."""
    token = ApiToken.objects.filter(pk=token_id, user=user).first()
    if token is None:
        raise PermissionDenied("No such token of yours.")
    return token


def tokens_of(user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).select_related("workspace")


def token_valid(*, token_id: int) -> bool:
    """Whether the token still works (not revoked or expired, its user active and still a member of its workspace):
    what a long-lived event stream checks again while it runs."""
    now = timezone.now()
    return (
        ApiToken.objects.filter(pk=token_id, revoked_at__isnull=True, user__is_active=True)
        .exclude(expires_at__lte=now)
        .filter(user__memberships__workspace=F("workspace"))
        .exists()
    )


def token_access(key: str) -> Access | None:
    """What ``key`` gives access to now, or None (malformed, unknown, revoked, expired, its user inactive or no
    longer a member of its workspace)."""
    if not key_well_formed(key):
        return None
    now = timezone.now()
    token = (
        ApiToken.objects.select_related("user", "workspace")
        .filter(token_sha256=key_digest(key), revoked_at__isnull=True)
        .first()
    )
    if token is None or (token.expires_at is not None and token.expires_at <= now) or not token.user.is_active:
        return None
    membership = (
        Membership.objects.select_related("workspace", "user")
        .filter(user=token.user, workspace=token.workspace)
        .first()
    )
    if membership is None:
        return None
    if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return Access(token, membership)
