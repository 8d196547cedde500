"""Storing uploaded bytes under MEDIA_ROOT, streamed, hashed and size-checked."""

from __future__ import annotations

import hashlib
import re
import shutil
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
EMPTY_FILE = "the file is empty"


@dataclass(frozen=True)
class StoredFile:
    relative_path: str
    size: int
    sha256: str
    too_large: bool


def safe_display_name(name: str) -> str:
    """The file's own name (no folders a browser may have sent), never empty."""
    return Path(name.replace("\\", "/")).name.strip() or "unnamed"


def corpus_folder(corpus_id: int) -> Path:
    """Where a corpus's uploaded files are kept (MEDIA_ROOT/uploads/<corpus id>/)."""
    return settings.MEDIA_ROOT / "uploads" / str(corpus_id)


def upload_limit() -> int:
    return settings.MAX_UPLOAD_MB * 2**20


def store(*, corpus_id: int, name: str, chunks: Iterable[bytes], limit: int | None = None) -> StoredFile:
    """Write ``chunks`` to a new file; stop (and delete it) once it exceeds ``limit`` bytes (MAX_UPLOAD_MB by
    default). An empty file is not kept either (its row says so)."""
    limit = upload_limit() if limit is None else limit
    target = corpus_folder(corpus_id) / f"{uuid.uuid4().hex}-{_UNSAFE.sub('_', name)[-100:]}"
    relative = target.relative_to(settings.MEDIA_ROOT)
    target.parent.mkdir(parents=True, exist_ok=True)
    digest, size = hashlib.sha256(), 0
    with target.open("wb") as handle:
        for chunk in chunks:
            size += len(chunk)
            if size > limit:
                break
            digest.update(chunk)
            handle.write(chunk)
    if size > limit or size == 0:
        target.unlink(missing_ok=True)
        return StoredFile(relative_path="", size=size, sha256="", too_large=size > 0)
    return StoredFile(relative_path=str(relative), size=size, sha256=digest.hexdigest(), too_large=False)


def read(relative_path: str) -> bytes:
    return (settings.MEDIA_ROOT / relative_path).read_bytes()


def remove(relative_path: str) -> None:
    if relative_path:
        (settings.MEDIA_ROOT / relative_path).unlink(missing_ok=True)


def remove_corpus(corpus_id: int) -> None:
    """Delete every stored file of a corpus (its folder; nothing there is no error)."""
    shutil.rmtree(corpus_folder(corpus_id), ignore_errors=True)
