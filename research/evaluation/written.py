"""The figures of a written answer (``evaluate --writer``): is the answer in its text, do its citations hold,
and do they cite supporting documents."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from research.evaluation.formats import Task
from research.evaluation.metrics import TaskMetrics, answer_found
from research.protocol.report import Report
from research.retrieval.port import Searchable
from research.retrieval.types import Chunk
from research.writing.answer import answer_report
from research.writing.citations import Evidence, quote_in
from research.writing.writers import Writer


def evidence_of(index: Searchable, ranked: Sequence[tuple[str, Sequence[str]]]) -> list[Evidence]:
    """The chunks of each ranked document (doc id, its chunk ids in order), as the writer's evidence."""
    evidence: list[Evidence] = []
    for doc_id, chunk_ids in ranked:
        chunks: dict[str, Chunk] = {chunk.chunk_id: chunk for chunk in index.document_chunks(doc_id)}
        for chunk_id in chunk_ids:
            chunk = chunks.get(chunk_id)
            if chunk is not None:
                evidence.append(Evidence(chunk_id, doc_id, chunk.title, doc_id, chunk.text))
    return evidence


def with_answer(metrics: TaskMetrics, task: Task, report: Report, chunk_text: Mapping[str, str]) -> TaskMetrics:
    """``metrics`` with the written answer's figures: the gold answer (or an alias) in the claims' text; the
    share of shown citations whose quote the cited chunk's stored text holds (checked again here, against
    the index's text, not the writer's view of it); the share of cited chunks from supporting documents."""
    citations = [citation for claim in report.summary for citation in claim.citations]
    text = " ".join(claim.text for claim in report.summary)
    verified = [quote_in(c.quote, chunk_text.get(c.chunk_id, "")) for c in citations]
    gold = set(task.supporting_doc_ids)
    supporting = [c.doc_id in gold for c in citations] if gold else []
    return dataclasses.replace(
        metrics,
        answer_in_text=answer_found((task.answer, *task.answer_aliases), [text]) if report.summary else False,
        citations_verified=sum(verified) / len(verified) if verified else None,
        citation_precision=sum(supporting) / len(supporting) if supporting else None,
    )


def written(
    metrics: TaskMetrics, task: Task, index: Searchable, ranked: Sequence[tuple[str, Sequence[str]]], writer: Writer
) -> TaskMetrics:
    """Write the answer to ``task`` from the ``ranked`` documents' chunks and add its figures to ``metrics``."""
    evidence = evidence_of(index, ranked)
    report = answer_report(task.question, evidence, writer)
    return with_answer(metrics, task, report, {item.chunk_id: item.text for item in evidence})
