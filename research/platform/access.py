"""Socket access after connect: re-checked before sending, and revoked at once when a member leaves or logs out.

A socket checks membership when it connects; access can end while it stays open. Two mechanisms, so
that neither a lost message nor a change made behind the product's back keeps a socket delivering:

- **Pushed revocations.** Removing a membership (the service, the admin, a cascade: any ORM delete)
  and logging out publish ``access.revoked`` to the user's channel-layer group (``user.<id>``), which
  every socket of that user joins. A socket of the session that logged out closes at once; the
  others re-read their session and access from the database and close if it is gone.
- **A bounded re-check before sending.** A socket re-reads its session (still logging in its user,
  password unchanged) and its access at most every ``RECHECK_SECONDS`` before it sends anything, so
  access removed with raw SQL, an expired session or a lost revocation stops delivery within that
  bound. Between re-checks, sending costs a clock read; a re-check is two indexed reads.

Closing uses 4403 (``CLOSE_FORBIDDEN``), the same code as a refused handshake.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete
from django.http import HttpRequest

from research.platform.realtime import CLOSE_FORBIDDEN, publish_access_revoked, user_group

logger = logging.getLogger(__name__)

RECHECK_SECONDS = 5.0


def session_tag(session_key: str | None) -> str:
    """A digest of a session key: names a session in channel-layer messages without carrying the key itself."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32] if session_key else ""


def access_revoke(*, user_id: int, session_key: str | None = None) -> None:
    """After commit, tell the user's sockets that access changed (``session_key``: that session's sockets close)."""
    tag = session_tag(session_key)

    def send() -> None:
        try:
            publish_access_revoked(user_id, tag)
        except Exception:  # the bounded re-check still closes the sockets; never fail the request for it
            logger.warning("could not publish an access revocation for user %s", user_id, exc_info=True)

    transaction.on_commit(send)


def session_user_id(session_key: str | None) -> int | None:
    """The id of the user the session logs in now (session present, password unchanged), or None."""
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    request = HttpRequest()
    request.session = store
    user = auth.get_user(request)
    return user.pk if user.is_authenticated else None


class SocketAccess:
    """A connected socket's right to keep reading: its session still logs its user in and ``allowed(user_id)``."""

    def __init__(self, *, user_id: int, session_key: str | None, allowed: Callable[[int], bool], every: float) -> None:
        self.user_id, self.session_key, self.allowed, self.every = user_id, session_key, allowed, every
        self.checked_at = time.monotonic()

    def _holds_now(self) -> bool:
        return session_user_id(self.session_key) == self.user_id and self.allowed(self.user_id)

    async def holds(self, *, recheck: bool = False) -> bool:
        """True while access holds; reads the database only when forced or when the last check is too old."""
        if not recheck and time.monotonic() - self.checked_at < self.every:
            return True
        holds = bool(await database_sync_to_async(self._holds_now)())
        self.checked_at = time.monotonic()
        return holds

    def ended_here(self, message: dict[str, Any]) -> bool:
        """The revocation names this socket's own session (it logged out)."""
        return bool(message.get("session")) and message["session"] == session_tag(self.session_key)


class GuardedConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """A socket that keeps checking its access after connect (see the module docstring)."""

    access_check_seconds = RECHECK_SECONDS
    access: SocketAccess | None = None

    async def guard(self, user: Any, allowed: Callable[[int], bool]) -> None:
        """Start guarding (after the connect-time check passed): join the user's group for revocations."""
        session = self.scope.get("session")
        self.access = SocketAccess(
            user_id=user.pk,
            session_key=getattr(session, "session_key", None),
            allowed=allowed,
            every=self.access_check_seconds,
        )
        await self.channel_layer.group_add(user_group(user.pk), self.channel_name)

    async def unguard(self) -> None:
        if self.access is not None:
            await self.channel_layer.group_discard(user_group(self.access.user_id), self.channel_name)

    async def may_send(self) -> bool:
        """Whether the socket may still send; closes it with 4403 when access is gone."""
        if self.access is None:
            return False
        if await self.access.holds():
            return True
        await self.revoke()
        return False

    async def access_revoked(self, message: dict[str, Any]) -> None:
        """A revocation for this socket's user (research.platform.realtime.publish_access_revoked)."""
        if self.access is None:
            return
        if self.access.ended_here(message) or not await self.access.holds(recheck=True):
            await self.revoke()

    async def revoke(self) -> None:
        access, self.access = self.access, None
        if access is not None:
            await self.channel_layer.group_discard(user_group(access.user_id), self.channel_name)
        await self.close(code=CLOSE_FORBIDDEN)


def _membership_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    access_revoke(user_id=instance.user_id)


def _logged_out(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if user is None or request is None:
        return
    access_revoke(user_id=user.pk, session_key=getattr(getattr(request, "session", None), "session_key", None))


def connect_signals() -> None:
    """Called once from PlatformConfig.ready: every membership delete and every logout revokes socket access."""
    post_delete.connect(_membership_deleted, sender="research.Membership", dispatch_uid="access-membership-deleted")
    user_logged_out.connect(_logged_out, dispatch_uid="access-logged-out")
