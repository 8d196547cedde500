"""The citation check: a claim is shown only if every citation holds; it fails closed.

A citation holds when it names a chunk retrieved in this run and its quote occurs in that chunk's
text, after folding case, accents, punctuation and spacing (``research.writing.text.fold``); a long
quote may differ by a character or two (rapidfuzz's partial ratio at ``FUZZY_MIN``), a short one may
not. A claim holds when it has a citation, every citation holds, and every number and proper name of
its text occurs in its quotes. Anything else is removed, with the reason, for the removed-claims panel.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from research.protocol.report import Citation, Claim, Removed
from research.writing.text import fold, unsupported_terms

FUZZY_MIN = 97.0  # partial_ratio a long quote needs when it is not found verbatim (after folding)
FUZZY_MIN_CHARS = 40  # shorter quotes must be found verbatim
MIN_QUOTE_CHARS = 8  # a quote shorter than this (after folding) backs nothing


@dataclass(frozen=True)
class Evidence:
    """One chunk retrieved in the run: what a citation may name."""

    chunk_id: str
    doc_id: str
    title: str
    source: str
    text: str
    date: str | None = None
    rank: int = 0  # its document's place in the run's ranking (0 = first)
    publisher: str = ""  # who the document says published it: a page's copyright line and site, a mail's sender
    internal: bool = False  # one of our own notes (research/corpora/internal.py)


def quote_in(quote: str, text: str) -> bool:
    """Whether ``quote`` occurs in ``text`` after folding (a long quote within a small fuzzy tolerance)."""
    needle, haystack = fold(quote), fold(text)
    if len(needle) < MIN_QUOTE_CHARS:
        return False
    if needle in haystack:
        return True
    return len(needle) >= FUZZY_MIN_CHARS and fuzz.partial_ratio(needle, haystack) >= FUZZY_MIN


def _citation_problem(citation: Citation, evidence: Mapping[str, Evidence]) -> str | None:
    chunk = evidence.get(citation.chunk_id)
    if chunk is None:
        return f"cites {citation.chunk_id!r}, which this run did not retrieve"
    if chunk.doc_id != citation.doc_id:
        return f"cites {citation.chunk_id!r} as part of {citation.doc_id!r}, which it is not"
    if not quote_in(citation.quote, chunk.text):
        return f"its quote is not in {chunk.title or chunk.doc_id} ({citation.chunk_id})"
    return None


def claim_problem(claim: Claim, evidence: Mapping[str, Evidence]) -> str | None:
    """Why ``claim`` may not be shown, or None when every rule holds."""
    if not claim.text.strip():
        return "it is empty"
    if not claim.citations:
        return "it cites nothing"
    for citation in claim.citations:
        problem = _citation_problem(citation, evidence)
        if problem:
            return problem
    missing = unsupported_terms(claim.text, " ".join(citation.quote for citation in claim.citations))
    if missing:
        return "its quotes do not contain " + ", ".join(repr(term) for term in missing[:5])
    return None


def verified(
    claims: Iterable[Claim], evidence: Mapping[str, Evidence], *, stale_before: str | None = None
) -> tuple[list[Claim], list[Removed]]:
    """The claims that hold, each with its citations' sources and its newest source date filled in (marked
    stale when that date is before ``stale_before``, an ISO date), and the removed ones with reasons."""
    shown: list[Claim] = []
    removed: list[Removed] = []
    for claim in claims:
        problem = claim_problem(claim, evidence)
        if problem:
            removed.append(Removed(text=claim.text, reason=problem))
            continue
        citations = tuple(
            Citation(chunk_id=c.chunk_id, doc_id=c.doc_id, quote=c.quote, source=evidence[c.chunk_id].source)
            for c in claim.citations
        )
        dates = [date for c in claim.citations if (date := evidence[c.chunk_id].date)]
        date = max(dates) if dates else None
        stale = bool(date and stale_before and date[:10] < stale_before[:10])
        shown.append(Claim(text=claim.text, citations=citations, date=date, stale=stale))
    return shown, removed


def by_chunk(evidence: Sequence[Evidence]) -> dict[str, Evidence]:
    """Evidence by chunk id (the first of a repeated id wins)."""
    found: dict[str, Evidence] = {}
    for item in evidence:
        found.setdefault(item.chunk_id, item)
    return found
