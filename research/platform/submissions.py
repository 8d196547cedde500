"""One-time submission tokens: a form that starts something costly (a run, an ICP batch) carries a token made
when the form was drawn (``submission_token``); its POST claims that token in Redis with one ``SET NX``, so two
POSTs of the same submission (a double-click, a browser sending the form again) start one thing, whichever web
process answers each. The second waits for the first (bounded) and is answered with where the first went.

The claim's key is the token with the scope (who, what) and a digest of what was submitted: the same form sent
again with other values (the page restored by the back button, then changed) is another submission. A claim is
held while its request works (``PENDING_SECONDS`` at most, in case the process dies) and is let go when nothing
was started (the form's errors are shown; fixing them and sending again works); a started one is remembered for
``DONE_SECONDS``. A POST without a token (API clients, forms drawn before this existed) is not tracked, and
neither is one when Redis does not answer (a warning is logged): tokens prevent duplicates, they never refuse.
Redis is the store because every web process sees it (Django's default cache is per process).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from django.conf import settings
from django.http import HttpRequest

logger = logging.getLogger(__name__)

FIELD = "submission"  # the form field that carries the token
PENDING = b"-"  # a pending claim's value starts with it, then its owner's nonce (a started one holds a URL)
PENDING_SECONDS = 120  # a claim whose request died frees itself after this
DONE_SECONDS = 3600  # a repeat of a started submission is answered with its page this long
WAIT_SECONDS = 10.0  # a repeat waits this long at most for the first to finish
WAIT_STEP = 0.05
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_UNHASHED = frozenset({FIELD, "csrfmiddlewaretoken"})


@functools.cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def submission_token() -> str:
    """A new token, for one drawing of a form (``<input type="hidden" name="submission" value="...">``)."""
    return secrets.token_urlsafe(18)


class Submission:
    """This POST's claim: ``repeated`` when an earlier POST of the same submission holds it, then ``first_url`` is
    where that one went ("" while it is still on its way after the wait); otherwise call ``done(url)`` once the
    thing is started (without it the claim is let go when the ``submission_once`` block ends)."""

    def __init__(self, key: str | None, *, repeated: bool = False, first_url: str = "", owner: bytes = b"") -> None:
        self.key, self.repeated, self.first_url, self.owner = key, repeated, first_url, owner
        self.finished = False

    def done(self, url: str) -> None:
        """Record where the started thing is, if the claim is still this request's (compare and set: a request that
        outlived ``PENDING_SECONDS`` never overwrites a later request's claim)."""
        self.finished = True
        if self.key is None:
            return
        try:
            _client(settings.REDIS.client_url).eval(_SWAP, 1, self.key, self.owner, url.encode(), DONE_SECONDS)
        except redis.RedisError:
            logger.warning("a submission could not be recorded: Redis does not answer", exc_info=True)

    def release(self) -> None:
        """Let the claim go if it is still this request's (compare and delete)."""
        if self.key is None or self.finished:
            return
        try:
            _client(settings.REDIS.client_url).eval(_DROP, 1, self.key, self.owner)
        except redis.RedisError:
            logger.warning("a submission could not be released: Redis does not answer", exc_info=True)


_SWAP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('set', KEYS[1], ARGV[2], 'EX', ARGV[3]) end"
_DROP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def _fingerprint(request: HttpRequest) -> str:
    """A digest of what was submitted: the fields but the token and the CSRF token, and each file's bytes."""
    digest = hashlib.sha256()
    for name in sorted(request.POST):
        if name not in _UNHASHED:
            for value in request.POST.getlist(name):
                digest.update(f"{len(name)}:{name}={len(value)}:{value};".encode())
    for name in sorted(request.FILES):
        for upload in request.FILES.getlist(name):
            digest.update(f"file {name} {upload.name} {upload.size};".encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    return digest.hexdigest()


def _claim(key: str) -> Submission:
    client = _client(settings.REDIS.client_url)
    deadline = time.monotonic() + WAIT_SECONDS
    owner = PENDING + secrets.token_hex(8).encode()
    while True:
        if client.set(key, owner, nx=True, ex=PENDING_SECONDS):
            return Submission(key, owner=owner)
        got = client.get(key)
        value = got if isinstance(got, bytes) or got is None else str(got).encode()
        if value is not None and not value.startswith(PENDING):
            return Submission(None, repeated=True, first_url=value.decode())
        if value is not None and time.monotonic() >= deadline:
            return Submission(None, repeated=True)
        if value is not None:  # the first is still starting it
            time.sleep(WAIT_STEP)
        # (None: the first let it go, nothing started: this one tries)


@contextmanager
def submission_once(request: HttpRequest, *, scope: str) -> Iterator[Submission]:
    """Claim this POST's token for ``scope`` (who and what: ``run:<membership id>``) for the block; the claim is
    let go at its end unless ``done`` recorded what was started."""
    token = request.POST.get(FIELD, "")
    if not _TOKEN.fullmatch(token):
        yield Submission(None)
        return
    stem = hashlib.sha256(f"{token}:{_fingerprint(request)}".encode()).hexdigest()[:40]
    try:
        submission = _claim(f"{settings.REDIS.key_prefix}:submission:{scope}:{stem}")
    except redis.RedisError:
        logger.warning("repeated submissions are not caught: Redis does not answer", exc_info=True)
        submission = Submission(None)
    try:
        yield submission
    finally:
        submission.release()
