"""Write-side operations on corpora, uploads and documents (keyword-only, validated, transactional)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.text import slugify

from research.corpora import jobs, storage
from research.models import Corpus, Document, Membership, Stage, Upload, UploadFile
from research.platform.composition import corpus_index


def _require_editor(actor: Membership) -> None:
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can change corpora.")


def _unique_slug(actor: Membership, name: str) -> str:
    base = slugify(name)[:120] or "corpus"
    slug, suffix = base, 2
    while Corpus.objects.filter(workspace=actor.workspace, slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug


@transaction.atomic
def corpus_create(
    *,
    actor: Membership,
    name: str,
    description: str = "",
    chunk_tokens: int | None = None,
    parse_options: dict[str, object] | None = None,
) -> Corpus:
    _require_editor(actor)
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A corpus needs a name."})
    return Corpus.objects.create(
        workspace=actor.workspace,
        name=name,
        slug=_unique_slug(actor, name),
        description=description.strip(),
        created_by=actor.user,
        chunk_tokens=chunk_tokens or settings.CHUNK_TOKENS,
        parse_options=parse_options or {},
    )


@dataclass(frozen=True)
class IncomingFile:
    """A file as received: its name and its bytes, in pieces (so large uploads are never held in memory)."""

    name: str
    chunks: Iterable[bytes]


def _stored_file(upload: Upload, corpus: Corpus, incoming: IncomingFile) -> UploadFile:
    """Store one file's bytes and its row; a file over the size limit is stored as failed."""
    name = storage.safe_display_name(incoming.name)
    stored = storage.store(corpus_id=corpus.pk, name=name, chunks=incoming.chunks)
    item = UploadFile(
        upload=upload, name=name, size=stored.size, sha256=stored.sha256, stored_path=stored.relative_path
    )
    if stored.too_large:
        item.stage = Stage.FAILED
        item.error = f"over the size limit of {settings.MAX_UPLOAD_MB} MB"
    item.save()
    return item


def upload_create(*, actor: Membership, corpus: Corpus, files: Sequence[IncomingFile], enqueue: bool = True) -> Upload:
    """Store every file and queue each for ingestion after commit; a file over the size limit fails alone.

    With ``enqueue=False`` nothing is queued: the caller ingests the files itself (the CLI's --sync).
    """
    _require_editor(actor)
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That corpus is not in your workspace.")
    if not files:
        raise ValidationError({"upload": "Choose at least one file."})
    with transaction.atomic():
        upload = Upload.objects.create(corpus=corpus, created_by=actor.user)
        items = [_stored_file(upload, corpus, incoming) for incoming in files]
        queued = [item.pk for item in items if item.stage == Stage.QUEUED]
        if enqueue:
            transaction.on_commit(lambda: jobs.ingest_files_enqueue(queued))
    return upload


def document_delete(*, actor: Membership, document: Document) -> None:
    """Remove a document from the database and from every index of its corpus."""
    _require_editor(actor)
    corpus = document.corpus
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That document is not in your workspace.")
    corpus_index(corpus).delete_documents([document.doc_id])
    with transaction.atomic():
        document.delete()
        Corpus.objects.filter(pk=corpus.pk).update(content_version=F("content_version") + 1)
        transaction.on_commit(lambda: jobs.sparse_refresh_enqueue(corpus.pk))
