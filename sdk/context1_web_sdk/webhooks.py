"""Checking a webhook from a Context-1 Web server: its signature (HMAC-SHA256 of ``<timestamp>.<body>`` with the
secret given when the run or schedule was set up) and its age, before trusting its body.

    from context1_web_sdk import verify_webhook, WebhookError

    event = verify_webhook(request.body, request.headers, secret=WEBHOOK_SECRET)  # WebhookError if not genuine
    if event["type"] == "run.finished": ...

The same delivery may come more than once (a receiver that answered late is asked again): ``event["id"]`` is the
same each time, so a receiver drops repeats by it."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any

from context1_web_sdk.errors import Context1Error

TOLERANCE_SECONDS = 300


class WebhookError(Context1Error):
    """A request that is not a genuine, recent webhook of the server (the message says what is wrong)."""


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name.lower():
            return value
    raise WebhookError(f"no {name} header")


def verify_webhook(
    body: bytes,
    headers: Mapping[str, str],
    *,
    secret: str,
    tolerance: float = TOLERANCE_SECONDS,
    now: float | None = None,
) -> dict[str, Any]:
    """The webhook's JSON (``id``, ``type``: ``run.finished`` or ``run.failed``, ``run``) once its signature holds
    and it was signed within ``tolerance`` seconds of ``now``; ``WebhookError`` otherwise."""
    stamp = _header(headers, "Context1-Webhook-Timestamp")
    given = _header(headers, "Context1-Webhook-Signature")
    if not (stamp.isascii() and stamp.isdigit()):
        raise WebhookError("the timestamp is not a number of seconds")
    age = (time.time() if now is None else now) - int(stamp)
    if abs(age) > tolerance:
        raise WebhookError(f"signed {age:.0f} s ago, more than {tolerance:g} s apart: refused as a replay")
    digest = hmac.new(secret.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(part.strip(), f"v1={digest}") for part in given.split(",")):
        raise WebhookError("the signature does not match: another secret, or the body was changed")
    return json.loads(body)  # type: ignore[no-any-return]
