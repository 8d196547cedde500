"""How a webhook is signed: HMAC-SHA256, with the secret its owner chose, of ``<timestamp>.<body>``.

Headers: ``Context1-Webhook-Id`` (the delivery, the same on every attempt: a receiver drops repeats by it),
``Context1-Webhook-Timestamp`` (Unix seconds when this attempt was signed: a receiver refuses old ones, so a captured
request cannot be replayed later) and ``Context1-Webhook-Signature`` (``v1=<hex digest>``). The SDK's
``verify_webhook`` checks all three (sdk/context1_web_sdk/webhooks.py)."""

from __future__ import annotations

import hashlib
import hmac

ID_HEADER = "Context1-Webhook-Id"
TIMESTAMP_HEADER = "Context1-Webhook-Timestamp"
SIGNATURE_HEADER = "Context1-Webhook-Signature"
USER_AGENT = "Context1Web-Webhook/1.0"
SECRET_MIN, SECRET_MAX = 16, 200


def signature(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"v1={digest}"


def signed_headers(*, secret: str, delivery_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        ID_HEADER: delivery_id,
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature(secret, timestamp, body),
    }
