"""The API token's format: ``c1w_`` + 30 random base62 characters + a 6-character base62 CRC32 of them (GitHub's
format), 178 random bits. The prefix lets a secret scanner recognise a leaked token, and the checksum lets the API
refuse a mistyped or made-up one without a database lookup. Only the token's SHA-256 is stored (a high-entropy
secret needs no slow hash); the page shows its first characters (``hint``) to tell tokens apart."""

from __future__ import annotations

import secrets
import string
import zlib

from research.platform.tokens import token_digest

PREFIX = "c1w_"
ALPHABET = string.digits + string.ascii_letters  # base62
RANDOM_CHARS = 30
CHECKSUM_CHARS = 6
LENGTH = len(PREFIX) + RANDOM_CHARS + CHECKSUM_CHARS
HINT_CHARS = len(PREFIX) + 4


def _base62(number: int, width: int) -> str:
    digits = []
    for _ in range(width):
        number, digit = divmod(number, len(ALPHABET))
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits))


def _checksum(body: str) -> str:
    return _base62(zlib.crc32(body.encode()), CHECKSUM_CHARS)


def key_new() -> str:
    body = "".join(secrets.choice(ALPHABET) for _ in range(RANDOM_CHARS))
    return f"{PREFIX}{body}{_checksum(body)}"


def key_well_formed(key: str) -> bool:
    """Whether ``key`` has the prefix, the length, the alphabet and a matching checksum."""
    if len(key) != LENGTH or not key.startswith(PREFIX):
        return False
    body, checksum = key[len(PREFIX) : -CHECKSUM_CHARS], key[-CHECKSUM_CHARS:]
    return all(char in ALPHABET for char in body) and secrets.compare_digest(checksum, _checksum(body))


def key_digest(key: str) -> str:
    return token_digest(key)


def key_hint(key: str) -> str:
    """What the page shows of a token: 'c1w_AbCd…'."""
    return f"{key[:HINT_CHARS]}…"
