"""Ingestion: one uploaded file through stored -> parsed -> chunked -> searchable -> indexed, idempotently.

Searchable comes first: a file's chunks are stored without vectors (``HybridCorpus.add_words``) and BM25 is
rebuilt once no file of the corpus waits for that stage, so a large upload is searchable by words in seconds
per file. Its vectors follow (``refine``): the worker's ``ingest_refine`` task embeds a searchable file once no
file of its corpus still waits for its words, and moves its chunks into the dense index; searches use the
vectors each chunk has. Synchronous callers (the CLI's ``--sync``, tests) run both stages at once.

A file is claimed with a lease (research/corpora/lease.py), so a redelivered task is a no-op while
another worker holds it and resumes cleanly after a crash. A document's identity is its source file
and its key within the file; its content hash decides whether it is re-embedded, so re-uploading
the same file changes nothing. Every stage change is saved and pushed to the workspace's sockets.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from research.corpora import estimate, quota, storage
from research.corpora.archives import expand_into_members, is_archive
from research.corpora.internal import internal_guess
from research.corpora.lease import LeaseLost, advance, claim, hold, lease, release, renew
from research.models import Chunk, Corpus, Document, Stage, UploadFile
from research.platform.composition import corpus_index, token_counter
from research.retrieval.chroma_client import STORE_UNAVAILABLE
from research.retrieval.chunking import ChunkSpan, chunk_text
from research.retrieval.embedders import EmbeddingUnavailable
from research.retrieval.parsing import ParsedDocument, ParseError, ParseOptions, SandboxLimits, parse_in_sandbox
from research.retrieval.parsing.common import publisher_of
from research.retrieval.types import Chunk as IndexChunk
from research.retrieval.types import chunk_id_for

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Planned:
    """A parsed document and what ingesting it will change."""

    doc_id: str
    content_hash: str
    parsed: ParsedDocument
    spans: list[ChunkSpan]
    unchanged: bool


def document_id(source_name: str, doc_key: str) -> str:
    return hashlib.sha256(f"{source_name}\0{doc_key}".encode()).hexdigest()[:20]


def content_hash(parsed: ParsedDocument) -> str:
    return hashlib.sha256(f"{parsed.title}\0{parsed.text}".encode()).hexdigest()


def fail(item: UploadFile, reason: str) -> None:
    """The file failed with ``reason``: its row says why, and its bytes are not kept (nothing can use them)."""
    logger.info("ingest of %s failed: %s", item.name, reason)
    stored_path = item.stored_path
    advance(item, Stage.FAILED, error=reason, stored_path="")
    storage.remove(stored_path)


def parse_options(corpus: Corpus) -> ParseOptions:
    allowed = set(ParseOptions.__dataclass_fields__) - {"max_output_chars"}
    given = {key: value for key, value in corpus.parse_options.items() if key in allowed}
    if "json_metadata_fields" in given:
        given["json_metadata_fields"] = tuple(given["json_metadata_fields"])
    return ParseOptions(**given)


def plan(corpus: Corpus, documents: list[ParsedDocument]) -> list[Planned]:
    existing = dict(Document.objects.filter(corpus=corpus).values_list("doc_id", "content_hash"))
    planned = []
    for parsed in documents:
        doc_id, digest = document_id(parsed.source_name, parsed.doc_key), content_hash(parsed)
        unchanged = existing.get(doc_id) == digest
        spans = [] if unchanged else chunk_text(parsed.text, max_tokens=corpus.chunk_tokens, counter=token_counter())
        planned.append(Planned(doc_id, digest, parsed, spans, unchanged))
    return planned


def _index_chunks(planned: Planned) -> list[IndexChunk]:
    parsed = planned.parsed
    metadata = {"source": parsed.source_name, "kind": parsed.kind}
    if parsed.metadata.get("date"):
        metadata["date"] = parsed.metadata["date"]
    if publisher := publisher_of(parsed.metadata):
        metadata["publisher"] = publisher[:300]  # BM25 indexes it with the title (sparse.with_title)
    title = parsed.title or storage.safe_display_name(parsed.source_name)
    return [
        IndexChunk(chunk_id_for(planned.doc_id, span.index), planned.doc_id, span.index, span.text, title, metadata)
        for span in planned.spans
    ]


@transaction.atomic
def save_documents(item: UploadFile, corpus: Corpus, planned: list[Planned], stale: list[str]) -> None:
    Document.objects.filter(corpus=corpus, doc_id__in=stale).delete()
    for entry in planned:
        if entry.unchanged:
            continue
        parsed = entry.parsed
        fields = {
            "title": (parsed.title or storage.safe_display_name(parsed.source_name))[:500],
            "source_name": parsed.source_name[:1024],
            "doc_key": parsed.doc_key[:300],
            "kind": parsed.kind,
            "content_hash": entry.content_hash,
            "metadata": parsed.metadata,
            "chunk_count": len(entry.spans),
            "upload_file": item,
        }
        # a new document's mark is guessed; a changed one keeps the mark an editor may have set
        document, _ = Document.objects.update_or_create(
            corpus=corpus,
            doc_id=entry.doc_id,
            defaults=fields,
            create_defaults={**fields, "internal": internal_guess(parsed)},
        )
        document.chunks.all().delete()
        Chunk.objects.bulk_create(
            Chunk(
                document=document,
                index=s.index,
                chunk_id=chunk_id_for(entry.doc_id, s.index),
                text=s.text,
                start=s.start,
                end=s.end,
                tokens=s.tokens,
            )
            for s in entry.spans
        )
    Corpus.objects.filter(pk=corpus.pk).update(content_version=F("content_version") + 1)


def ingest_documents(item: UploadFile, corpus: Corpus, documents: list[ParsedDocument], *, refine: bool = True) -> None:
    planned = plan(corpus, documents)
    changed = [entry for entry in planned if not entry.unchanged]
    cost = sum(len(entry.spans) for entry in changed)
    new_ids = {entry.doc_id for entry in planned}
    stale = list(
        Document.objects.filter(corpus=corpus, source_name=item.name)
        .exclude(doc_id__in=new_ids)
        .values_list("doc_id", flat=True)
    )
    # checked before anything is embedded or deleted: the corpus stays as it was
    with transaction.atomic():
        quota.lock(corpus.workspace_id)
        replacing = [entry.doc_id for entry in changed] + stale
        held = quota.chunks_held(corpus.workspace_id, corpus_id=corpus.pk, replacing=replacing, file_id=item.pk)
        refused = estimate.over_limit(cost, limit=settings.MAX_FILE_CHUNKS) or quota.over_budget(cost, held)
        if refused is None:  # the row shows what embedding it will take, and holds its place in the budget
            advance(item, Stage.CHUNKED, chunks_added=cost)
    if refused is not None:
        fail(item, refused)
        return
    index = corpus_index(corpus)
    renew(item)
    renewed = time.monotonic()
    index.delete_documents([entry.doc_id for entry in changed] + stale)
    for entry in changed:
        if time.monotonic() - renewed > lease().total_seconds() / 4:  # a file of many documents takes a while
            renew(item)
            renewed = time.monotonic()
        else:  # checked before every document: a worker that lost the file stops writing it
            hold(item, "while storing its documents")
        index.add_words(_index_chunks(entry))
    save_documents(item, corpus, planned, stale)
    advance(
        item,
        Stage.SEARCHABLE,
        error="",
        documents_added=len(changed),
        documents_unchanged=len(planned) - len(changed),
        chunks_added=cost,
        claimed_until=item.claimed_until if refine else None,  # the refining task takes its own lease
    )
    if refine:
        refine_file(item, corpus)


def refine_file(item: UploadFile, corpus: Corpus) -> None:
    """Embed the file's documents that wait for their vectors, then the file is indexed."""
    doc_ids = list(Document.objects.filter(corpus=corpus, upload_file=item).values_list("doc_id", flat=True))

    def embedded(moved: int) -> None:  # after each batch: say so, and renew the lease (the file is in hand)
        logger.info("ingest %s: %s chunks embedded", item, moved)
        renew(item)

    corpus_index(corpus).refine(doc_ids, progress=embedded)
    advance(item, Stage.INDEXED)


def upload_file_refine(*, upload_file_id: int) -> bool:
    """The vector stage of a searchable file; False when there was nothing to do (not searchable, or leased)."""
    item = claim(upload_file_id, stage=Stage.SEARCHABLE)
    if item is None:
        return False
    refine_file(item, item.upload.corpus)
    return True


def words_pending(corpus_id: int) -> bool:
    """Whether a file of the corpus is still on its way to being searchable (its vectors wait for it)."""
    recent = timezone.now() - timedelta(minutes=30)  # a file stuck longer must not hold the corpus back forever
    before = (Stage.QUEUED, Stage.STORED, Stage.PARSED, Stage.CHUNKED)
    return UploadFile.objects.filter(upload__corpus_id=corpus_id, stage__in=before, updated_at__gte=recent).exists()


def upload_file_ingest(*, upload_file_id: int, refine: bool = True) -> bool:
    """Run the pipeline for one file, to searchable by words and (``refine``) on to its vectors; returns False
    when there was nothing to do (finished or leased)."""
    item = claim(upload_file_id)
    if item is None:
        return False
    corpus = item.upload.corpus
    try:
        data = storage.read(item.stored_path)
    except FileNotFoundError:
        fail(item, "the stored upload is missing; upload the file again")
        return True
    advance(item, Stage.STORED)
    if is_archive(item.name):
        expand_into_members(item, data)
        return True
    limits = SandboxLimits(timeout_s=settings.PARSE_TIMEOUT, memory_mb=settings.PARSE_MEMORY_MB)
    try:
        outcome = parse_in_sandbox(item.name, data, parse_options(corpus), limits)
    except ParseError as error:
        fail(item, error.reason)
        return True
    renew(item)  # parsing may take up to PARSE_TIMEOUT
    # the fields a record format was read from ride along with the row's problems (the page says which were chosen)
    chosen: list[object] = [{"fields": outcome.fields}] if outcome.fields else []
    advance(item, Stage.PARSED, warnings=[*outcome.errors[:50], *chosen])
    documents = [doc for doc in outcome.documents if doc.text.strip()]
    if not documents:
        fail(item, "no text found in this file")
        return True
    ingest_documents(item, corpus, documents, refine=refine)
    return True


def fail_by_id(upload_file_id: int, reason: str) -> None:
    item = UploadFile.objects.select_related("upload__corpus").filter(pk=upload_file_id).first()
    if item is not None and not item.done:
        fail(item, reason)


def upload_file_ingest_safely(*, upload_file_id: int, refine: bool = True) -> int | None:
    """``upload_file_ingest`` where a bug fails the file with a reason instead of leaving it stuck.

    Returns the corpus id when the file reached its stage, None when there was nothing to do.
    Transient failures (the embedding service or the Chroma server unreachable) release the lease and propagate,
    so the task can retry.
    """
    return _safely(lambda: upload_file_ingest(upload_file_id=upload_file_id, refine=refine), upload_file_id)


def upload_file_refine_safely(*, upload_file_id: int) -> int | None:
    """``upload_file_refine`` as ``upload_file_ingest_safely`` runs the first stages."""
    return _safely(lambda: upload_file_refine(upload_file_id=upload_file_id), upload_file_id)


def _safely(step: Callable[[], bool], upload_file_id: int) -> int | None:
    try:
        if not step():
            return None
    except LeaseLost as lost:
        logger.warning("%s", lost)
        return None
    except EmbeddingUnavailable as error:
        release(upload_file_id, f"embedding service unavailable, retrying: {error}")
        raise
    except STORE_UNAVAILABLE as error:
        release(upload_file_id, f"the Chroma server cannot be reached, retrying: {error}")
        raise
    except Exception as error:
        logger.exception("ingest of upload file %s crashed", upload_file_id)
        fail_by_id(upload_file_id, f"internal error ({type(error).__name__}): {error}"[:500])
    return int(UploadFile.objects.values_list("upload__corpus_id", flat=True).get(pk=upload_file_id))


def corpus_refresh_sparse(*, corpus_id: int) -> bool:
    """Rebuild the corpus's BM25 index once no file of it is still being ingested; False when not needed."""
    corpus = Corpus.objects.filter(pk=corpus_id).first()
    if corpus is None or corpus.sparse_version >= corpus.content_version:
        return False
    if words_pending(corpus_id):
        return False  # the last file to become searchable triggers the rebuild (files waiting for vectors do not)
    target = corpus.content_version
    count = corpus_index(corpus).refresh_sparse()
    Corpus.objects.filter(pk=corpus_id, sparse_version__lt=target).update(sparse_version=target)
    logger.info("BM25 index of corpus %s rebuilt: %s chunks (version %s)", corpus_id, count, target)
    return True
