"""The question template's report: a few verified claims that answer the question, above the ranked documents."""

from __future__ import annotations

from collections.abc import Sequence

from research.protocol.report import Claim, Removed, Report, Source
from research.writing.citations import Evidence, by_chunk, verified
from research.writing.writers import Brief, Writer

ANSWER_CLAIMS = 8  # kept 0.73 (MuSiQue) / 0.79 (HotpotQA) of the found answers in text; 6 kept 0.67 / 0.74
NO_EVIDENCE = "No evidence found in the searched corpora."


def sources_of(claims: Sequence[Claim], evidence: Sequence[Evidence]) -> tuple[Source, ...]:
    """The documents the claims cite, in order of first citation (only what is cited)."""
    chunks = by_chunk(evidence)
    found: dict[str, Source] = {}
    for claim in claims:
        for citation in claim.citations:
            item = chunks[citation.chunk_id]
            found.setdefault(
                item.doc_id,
                Source(
                    doc_id=item.doc_id, title=item.title, source=item.source, date=item.date, internal=item.internal
                ),
            )
    return tuple(found.values())


def answer_report(
    question: str,
    evidence: Sequence[Evidence],
    writer: Writer,
    *,
    max_claims: int = ANSWER_CLAIMS,
    stale_before: str | None = None,
) -> Report:
    """Write, check and assemble the answer to ``question`` from the run's ``evidence`` (ranking order)."""
    draft = writer.write(Brief(focus=question, evidence=tuple(evidence), max_claims=max_claims))
    shown, removed = verified(draft.claims, by_chunk(evidence), stale_before=stale_before)
    notes = list(draft.notes)
    if not shown:
        notes.append(NO_EVIDENCE)
    return Report(
        template="question",
        writer=draft.writer,
        subject=question,
        summary=tuple(shown),
        removed=tuple(Removed(text=r.text, reason=r.reason) for r in removed),
        sources=sources_of(shown, evidence),
        notes=tuple(notes),
    )
