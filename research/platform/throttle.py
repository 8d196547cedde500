"""Login throttling: failed logins counted per username and per client address in Redis, shared by every web
process; past a limit, that username or address is refused until its lockout ends.

A failure increments two counters (the username, case-folded and hashed; the client address), each living
``LOGIN_LOCKOUT_SECONDS`` from its first failure. A counter that reaches its limit becomes a lock of
``LOGIN_LOCKOUT_SECONDS`` and starts again from zero, so the user is told one fixed time to come back.
While a lock holds, the password is not even checked: the right one is refused too. A successful login
clears its username's counter (not the address's: one valid account must not reset an address that is
guessing others). Redis is the store because it is already required and every process sees it (Django's
default cache is per process). If Redis does not answer, logins are let through and a warning is logged.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

import redis
from django.conf import settings
from django.utils import timezone

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Lockout:
    until: datetime

    def message(self) -> str:
        seconds = max(1, math.ceil((self.until - timezone.now()).total_seconds()))
        wait = f"{seconds} seconds" if seconds < 120 else f"{math.ceil(seconds / 60)} minutes"
        at = timezone.localtime(self.until).strftime("%H:%M:%S %Z")
        return f"Too many failed logins. Try again in {wait}, at {at}."


@functools.cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def window_count(key: str, window_seconds: int) -> tuple[int, int]:
    """Count one more hit of ``key`` in its current window of ``window_seconds`` (a counter that lives as long as
    the window from its first hit): the hits so far and the seconds left. Redis's own timeout bounds the call; a
    RedisError is the caller's to handle."""
    client = _client(settings.REDIS.client_url)
    stem = _prefixed(key)
    pipe = client.pipeline()
    pipe.set(stem, 0, ex=window_seconds, nx=True)
    pipe.incr(stem)
    pipe.ttl(stem)
    _, hits, left = pipe.execute()
    return int(hits), max(1, int(left))


def _subjects(username: str, address: str | None) -> list[tuple[str, int]]:
    """The key stem (without the deployment's prefix) and failure limit of each thing that is throttled."""
    digest = hashlib.sha256(username.casefold().encode()).hexdigest()[:32]
    subjects = [(f"login:user:{digest}", settings.LOGIN_FAILURES_PER_USERNAME)]
    if address:
        subjects.append((f"login:addr:{address}", settings.LOGIN_FAILURES_PER_ADDRESS))
    return subjects


def _prefixed(key: str) -> str:
    return f"{settings.REDIS.key_prefix}:{key}"


def login_lockout(*, username: str, address: str | None) -> Lockout | None:
    """The lockout in force for this username or this address (the later-ending one), or None."""
    try:
        client = _client(settings.REDIS.client_url)
        remaining = [int(client.pttl(_prefixed(f"{stem}:lock"))) for stem, _ in _subjects(username, address)]
    except redis.RedisError:
        logger.warning("login throttling is off: Redis does not answer", exc_info=True)
        return None
    longest = max(remaining, default=-2)
    return Lockout(until=timezone.now() + timedelta(milliseconds=longest)) if longest > 0 else None


def login_failed(*, username: str, address: str | None) -> Lockout | None:
    """Count a failed login; returns the lockout that this failure started (or that already held)."""
    window = settings.LOGIN_LOCKOUT_SECONDS
    try:
        client = _client(settings.REDIS.client_url)
        for stem, limit in _subjects(username, address):
            hits, _ = window_count(f"{stem}:count", window)
            if hits >= limit:
                lock = client.pipeline()
                lock.set(_prefixed(f"{stem}:lock"), 1, ex=window)
                lock.delete(_prefixed(f"{stem}:count"))
                lock.execute()
    except redis.RedisError:
        logger.warning("login throttling is off: Redis does not answer", exc_info=True)
        return None
    return login_lockout(username=username, address=address)


def login_succeeded(*, username: str) -> None:
    try:
        stem, _ = _subjects(username, None)[0]
        _client(settings.REDIS.client_url).delete(_prefixed(f"{stem}:count"))
    except redis.RedisError:
        logger.warning("login throttling is off: Redis does not answer", exc_info=True)
