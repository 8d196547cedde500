"""Secret link tokens (share links, invitations): 256 random bits, URL-safe; only their SHA-256 is stored, so a
database leak leaks no working link."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32  # 256 bits
TOKEN_MAX = 100  # longer is not one of ours: answered "not found" without a lookup


def token_new() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
