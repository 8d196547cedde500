"""Storing uploaded bytes under MEDIA_ROOT, streamed, hashed and size-checked."""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class StoredFile:
    relative_path: str
    size: int
    sha256: str
    too_large: bool


def safe_display_name(name: str) -> str:
    """The file's own name (no folders a browser may have sent), never empty."""
    return Path(name.replace("\\", "/")).name.strip() or "unnamed"


def store(*, corpus_id: int, name: str, chunks: Iterable[bytes]) -> StoredFile:
    """Write ``chunks`` to a new file; stop (and delete it) once it exceeds MAX_UPLOAD_MB."""
    limit = settings.MAX_UPLOAD_MB * 2**20
    relative = Path("uploads") / str(corpus_id) / f"{uuid.uuid4().hex}-{_UNSAFE.sub('_', name)[-100:]}"
    target = settings.MEDIA_ROOT / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    digest, size = hashlib.sha256(), 0
    with target.open("wb") as handle:
        for chunk in chunks:
            size += len(chunk)
            if size > limit:
                break
            digest.update(chunk)
            handle.write(chunk)
    if size > limit:
        target.unlink(missing_ok=True)
        return StoredFile(relative_path="", size=size, sha256="", too_large=True)
    return StoredFile(relative_path=str(relative), size=size, sha256=digest.hexdigest(), too_large=False)


def read(relative_path: str) -> bytes:
    return (settings.MEDIA_ROOT / relative_path).read_bytes()


def remove(relative_path: str) -> None:
    if relative_path:
        (settings.MEDIA_ROOT / relative_path).unlink(missing_ok=True)
