"""Reading what a report is written from and what was written: a run's evidence and its stored report."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.db.models import Q

from research.models import Chunk, Document, Report, Run
from research.protocol.events import RankedDocument
from research.protocol.report import Report as WrittenReport
from research.protocol.report import citations_of, report_from_dict
from research.reporting.internal import outward
from research.retrieval.language import language_of
from research.retrieval.parsing.common import publisher_of
from research.writing.citations import Evidence

LANGUAGE_SAMPLE = 200  # chunks read to tell a run's corpora's language


def run_language(run: Run) -> str:
    """The language of the run's corpora ("en" or "fr", research.retrieval.language), from a sample of chunks."""
    texts = Chunk.objects.filter(document__corpus__in=run.corpora.all()).values_list("text", flat=True)
    return language_of(texts[:LANGUAGE_SAMPLE])


def source_of(document: Document) -> str:
    """Where a document came from, as citations name it: its file, or for a fetched web page its address and the
    day it was fetched ("https://news.example/berlin (fetched 2026-12-02)")."""
    metadata = document.metadata if isinstance(document.metadata, dict) else {}
    url, fetched = str(metadata.get("url", "")), str(metadata.get("fetched_at", ""))[:10]
    if url:
        return f"{url} (fetched {fetched})" if fetched else url
    return document.source_name


def evidence_for_run(run: Run, documents: Sequence[RankedDocument], *, whole: int = 0) -> list[Evidence]:
    """The chunks of the run's ranked documents, in ranking order (each document's chunks in the order the
    rollouts kept them), read from the run's own corpora only: a chunk id the run's corpora do not hold is
    never evidence. With ``whole``, a document of at most that many chunks is read whole: its other chunks follow
    the ones kept, in the document's order (a report reads the pages its search found, as an analyst does: the plan
    cards above the pricing page's chunk that matched)."""
    wanted = [(doc.doc_id, chunk_id) for doc in documents for chunk_id in doc.chunk_ids]
    if whole:
        wanted = _with_whole_documents(run, wanted, whole)
    rows = (
        Chunk.objects.filter(document__corpus__in=run.corpora.all(), chunk_id__in={c for _, c in wanted})
        .select_related("document")
        .only(
            *("chunk_id", "text", "document__doc_id", "document__title", "document__source_name"),
            *("document__metadata", "document__internal"),
        )
    )
    by_id = {(row.document.doc_id, row.chunk_id): row for row in rows}
    evidence: list[Evidence] = []
    for rank, (doc_id, chunk_id) in enumerate(wanted):
        row = by_id.get((doc_id, chunk_id))
        if row is None:
            continue
        document = row.document
        metadata = document.metadata if isinstance(document.metadata, dict) else {}
        date = metadata.get("date")
        evidence.append(
            Evidence(
                chunk_id=chunk_id,
                doc_id=doc_id,
                title=document.title or document.source_name,
                source=source_of(document),
                text=row.text,
                date=str(date) if date else None,
                rank=rank,
                publisher=publisher_of(metadata),
                internal=document.internal,
            )
        )
    return evidence


def _with_whole_documents(run: Run, wanted: list[tuple[str, str]], whole: int) -> list[tuple[str, str]]:
    """``wanted`` with, after each document's kept chunks, its other chunks when it has at most ``whole``."""
    doc_ids = list(dict.fromkeys(doc_id for doc_id, _ in wanted))
    chunks = Chunk.objects.filter(document__corpus__in=run.corpora.all(), document__doc_id__in=doc_ids)
    of_document: dict[str, list[str]] = {}
    for doc_id, chunk_id in chunks.order_by("document_id", "index").values_list("document__doc_id", "chunk_id"):
        of_document.setdefault(doc_id, []).append(chunk_id)
    kept: dict[str, list[str]] = {}
    for doc_id, chunk_id in wanted:
        kept.setdefault(doc_id, []).append(chunk_id)
    result: list[tuple[str, str]] = []
    for doc_id in doc_ids:
        others = of_document.get(doc_id, [])
        extra = [c for c in others if c not in kept[doc_id]] if len(others) <= whole else []
        result += [(doc_id, chunk_id) for chunk_id in [*kept[doc_id], *extra]]
    return result


def passage_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def passage_digests(run: Run, report: WrittenReport) -> dict[str, str]:
    """The SHA-256 of each chunk the report cites and of its neighbours (the context a share link shows), read from
    the run's own corpora: what a share link compares a passage's text with before it shows it."""
    cited = {citation.chunk_id for citation in citations_of(report)}
    found = Chunk.objects.filter(document__corpus__in=run.corpora.all(), chunk_id__in=cited).values_list(
        "document_id", "index"
    )
    wanted = {(document, index + step) for document, index in found for step in (-1, 0, 1)}
    if not wanted:
        return {}
    near = Q()
    for document, index in wanted:
        near |= Q(document_id=document, index=index)
    rows = Chunk.objects.filter(near).values_list("chunk_id", "text")
    return {chunk_id: passage_digest(text) for chunk_id, text in rows}


def internal_cited(run: Run, report: WrittenReport) -> frozenset[str]:
    """The documents ``report`` cites that are our own notes: marked so when it was written, or since (an
    editor's mark on the document's page)."""
    marked_then = {source.doc_id for source in report.sources if source.internal}
    return frozenset(marked_then | internal_among(run, {c.doc_id for c in citations_of(report)}))


def internal_among(run: Run, doc_ids: set[str]) -> set[str]:
    """Those of ``doc_ids`` that the run's corpora hold marked internal now."""
    marked = Document.objects.filter(corpus__in=run.corpora.all(), doc_id__in=doc_ids, internal=True)
    return set(marked.values_list("doc_id", flat=True))


def report_of(run: Run) -> WrittenReport | None:
    """The run's stored report, or None when none was written (or it cannot be read)."""
    stored = Report.objects.filter(run=run).only("body").first()
    if stored is None:
        return None
    try:
        return report_from_dict(stored.body)
    except (KeyError, TypeError, ValueError):
        return None


def report_shown(run: Run, *, internal: bool = False) -> WrittenReport | None:
    """The run's report as it leaves the product (an export, the API): without the claims only our own notes back
    unless ``internal`` (research/reporting/internal.py); None when none was written."""
    stored = report_of(run)
    if stored is None or internal:
        return stored
    return outward(stored, internal_cited(run, stored)).report
