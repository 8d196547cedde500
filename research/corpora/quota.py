"""A workspace's storage quota and embedding budget, over all its corpora.

- Storage (``WORKSPACE_STORAGE_MB``): the bytes its uploads keep on disk. A file that would pass it is stored
  as failed with the reason and its bytes are deleted; so are a refused or failed file's bytes, and an archive's
  once its members are stored (the members count instead).
- Embedding (``WORKSPACE_MAX_CHUNKS``): the chunks its documents hold, plus those of files chunked and about to be
  stored. A file (an archive's member too) whose new chunks would pass it fails before anything is embedded, so a
  zip of many files under the per-file cap (``MAX_FILE_CHUNKS``) is bounded by the workspace's budget.

Both are checked with the workspace's row locked (``lock``), so two uploads or files at once cannot both take the
last room (on PostgreSQL; SQLite has one writer at a time). The corpus page shows what is used and what is left.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Sum

from research.corpora import storage
from research.models import Document, Stage, UploadFile, Workspace
from research.platform.quotas import mebibytes


@dataclass(frozen=True)
class Usage:
    stored_bytes: int
    storage_limit: int  # bytes
    chunks: int
    chunk_limit: int

    @property
    def storage_left(self) -> int:
        return max(0, self.storage_limit - self.stored_bytes)

    @property
    def chunks_left(self) -> int:
        return max(0, self.chunk_limit - self.chunks)

    @property
    def storage_line(self) -> str:
        return f"{mebibytes(self.stored_bytes)} of {mebibytes(self.storage_limit)} stored"

    @property
    def chunks_line(self) -> str:
        return f"{self.chunks:,} of {self.chunk_limit:,} chunks embedded"

    @property
    def nearly_full(self) -> bool:
        """Nine tenths of either used: the page says so before an upload fails."""
        return self.stored_bytes * 10 >= self.storage_limit * 9 or self.chunks * 10 >= self.chunk_limit * 9


def storage_limit() -> int:
    return settings.WORKSPACE_STORAGE_MB * 2**20


def lock(workspace_id: int) -> None:
    """Hold the workspace's row until the transaction ends (call inside one)."""
    Workspace.objects.select_for_update().filter(pk=workspace_id).exists()


def stored_bytes(workspace_id: int) -> int:
    kept = UploadFile.objects.filter(upload__corpus__workspace_id=workspace_id).exclude(stored_path="")
    return int(kept.aggregate(total=Sum("size"))["total"] or 0)


def chunks_held(
    workspace_id: int, *, corpus_id: int | None = None, replacing: Collection[str] = (), file_id: int = 0
) -> int:
    """The workspace's embedded chunks and those of files about to store theirs; without the chunks of the
    documents ``replacing`` names (of corpus ``corpus_id``), which a new version is about to replace, nor the
    reservation of file ``file_id`` itself."""
    documents = Document.objects.filter(corpus__workspace_id=workspace_id)
    held = int(documents.aggregate(total=Sum("chunk_count"))["total"] or 0)
    if replacing and corpus_id is not None:
        replaced = documents.filter(corpus_id=corpus_id, doc_id__in=list(replacing))
        held -= int(replaced.aggregate(total=Sum("chunk_count"))["total"] or 0)
    chunked = UploadFile.objects.filter(upload__corpus__workspace_id=workspace_id, stage=Stage.CHUNKED).exclude(
        pk=file_id
    )
    return held + int(chunked.aggregate(total=Sum("chunks_added"))["total"] or 0)


def usage(workspace_id: int) -> Usage:
    return Usage(
        stored_bytes=stored_bytes(workspace_id),
        storage_limit=storage_limit(),
        chunks=chunks_held(workspace_id),
        chunk_limit=settings.WORKSPACE_MAX_CHUNKS,
    )


def storage_full(workspace_id: int) -> str:
    """Why a file did not fit in what is left of the workspace's storage."""
    used = stored_bytes(workspace_id)
    return (
        f"the workspace's storage is full for this file ({mebibytes(used)} of {mebibytes(storage_limit())} used,"
        " WORKSPACE_STORAGE_MB); delete a corpus or documents to make room"
    )


def store_within(*, corpus_id: int, workspace_id: int, name: str, chunks: Iterable[bytes], room: int) -> Kept:
    """Store a file's bytes within MAX_UPLOAD_MB and the ``room`` left in the workspace's storage; a file over
    either, or empty, is not kept and ``Kept.refused`` says why."""
    stored = storage.store(corpus_id=corpus_id, name=name, chunks=chunks, limit=min(storage.upload_limit(), room))
    if stored.too_large and stored.size > storage.upload_limit():
        return Kept(stored, f"over the size limit of {settings.MAX_UPLOAD_MB} MB")
    if stored.too_large:
        return Kept(stored, storage_full(workspace_id))
    return Kept(stored, storage.EMPTY_FILE if stored.size == 0 else "")


@dataclass(frozen=True)
class Kept:
    stored: storage.StoredFile
    refused: str  # why the bytes were not kept ("" when they were)

    @property
    def size_kept(self) -> int:
        return 0 if self.refused else self.stored.size


def over_budget(chunks: int, held: int) -> str | None:
    """Why a file of ``chunks`` new chunks is refused when the workspace holds ``held``, or None when it fits."""
    limit = settings.WORKSPACE_MAX_CHUNKS
    if held + chunks <= limit:
        return None
    return (
        f"this file would be {chunks:,} chunks to embed and the workspace holds {held:,} of its {limit:,}"
        " (WORKSPACE_MAX_CHUNKS); delete documents or a corpus to make room"
    )
