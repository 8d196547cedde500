"""``Authorization: Bearer <token>``: the token's access (research/api/tokens.py), counted against its requests a
minute (``API_REQUESTS_PER_MINUTE``, in Redis so every web process shares the count)."""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.http import HttpRequest
from ninja.security import HttpBearer

from research.api.errors import Problem
from research.api.tokens import Access, token_access
from research.platform.throttle import window_count

logger = logging.getLogger(__name__)


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Access | None:
        access = token_access(token.strip())
        if access is None:
            return None
        try:
            hits, left = window_count(f"api:token:{access.token.token_sha256[:24]}", 60)
        except redis.RedisError:
            logger.warning("API rate limiting is off: Redis does not answer", exc_info=True)
            return access
        if hits > settings.API_REQUESTS_PER_MINUTE:
            raise Problem(
                "rate-limited",
                f"This token made {settings.API_REQUESTS_PER_MINUTE} requests in the last minute, the most allowed"
                " (API_REQUESTS_PER_MINUTE).",
                retry_after=left,
            )
        return access


def access_of(request: HttpRequest) -> Access:
    """The authenticated request's access (operations run behind ``TokenAuth``)."""
    access = getattr(request, "auth", None)
    assert isinstance(access, Access)
    return access


def require(request: HttpRequest, scope: str) -> Access:
    """The request's access, if it allows ``scope`` (else a ``missing-scope`` problem)."""
    access = access_of(request)
    if not access.allows(scope):
        scopes = ", ".join(access.token.scopes) or "all"
        role = access.membership.role
        raise Problem("missing-scope", f"This needs {scope}: the token's scopes are {scopes}, its role {role}.")
    return access


def same_workspace(access: Access, slug: str) -> None:
    """A workspace other than the token's is answered as missing (never as forbidden: nothing leaks)."""
    if slug != access.membership.workspace.slug:
        raise Problem("not-found", "Nothing here, or nothing this token may see.")
