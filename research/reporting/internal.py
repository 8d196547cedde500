"""A report as it may leave the workspace: without what our own notes say (research/corpora/internal.py).

A share link or an export leaves out every citation of an internal document; a claim, a summary line or a
conflict's claim that only internal documents back is left out with it, and an ICP verdict decided only from
them keeps its verdict but not its reason or quote ("decided from an internal source"). The removed claims'
list is emptied (its text may quote the notes too). A note says how much was left out, so a reader knows the
report is not the whole one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from research.protocol.report import (
    Citation,
    Claim,
    Conflict,
    CriterionResult,
    Report,
    Section,
    citations_of,
    claims_of,
)

INTERNAL_REASON = "Decided from an internal source, not shared."


@dataclass(frozen=True)
class Outward:
    report: Report
    left_out: int  # claims and verdict reasons left out because only internal documents back them


def _public(citations: Iterable[Citation], internal: frozenset[str]) -> tuple[Citation, ...]:
    return tuple(citation for citation in citations if citation.doc_id not in internal)


def _claims(claims: Iterable[Claim], internal: frozenset[str]) -> tuple[Claim, ...]:
    kept = (dataclasses.replace(claim, citations=_public(claim.citations, internal)) for claim in claims)
    return tuple(claim for claim in kept if claim.citations)


def _section(section: Section, internal: frozenset[str]) -> Section:
    claims = _claims(section.claims, internal)
    conflicts = tuple(
        Conflict(about=conflict.about, claims=kept)
        for conflict in section.conflicts
        if len(kept := _claims(conflict.claims, internal)) > 1
    )
    return dataclasses.replace(section, claims=claims, conflicts=conflicts, not_found=section.not_found or not claims)


def _criterion(item: CriterionResult, internal: frozenset[str]) -> CriterionResult:
    citations = _public(item.citations, internal)
    if item.citations and not citations:
        return dataclasses.replace(item, citations=(), reason=INTERNAL_REASON)
    return dataclasses.replace(item, citations=citations)


def outward(report: Report, internal: Iterable[str]) -> Outward:
    """``report`` without the documents ``internal`` names (doc ids); the same report when it cites none."""
    hidden = frozenset(internal)
    struck = tuple(item for item in report.struck if not hidden & set(item.doc_ids))  # its words may quote them
    if not hidden & {c.doc_id for c in citations_of(report)}:
        return Outward(dataclasses.replace(report, struck=struck), 0)
    summary = _claims(report.summary, hidden)
    sections = tuple(_section(section, hidden) for section in report.sections)
    criteria = tuple(_criterion(item, hidden) for item in report.criteria)
    kept = {claim.text for claim in [*summary, *(c for s in sections for c in s.claims)]}
    left_out = len({claim.text for claim in claims_of(report)} - kept)
    left_out += sum(1 for item in criteria if item.reason == INTERNAL_REASON)
    note = f"{left_out} claim{'s' if left_out != 1 else ''} backed only by our internal notes left out of this copy."
    trimmed = dataclasses.replace(
        report,
        summary=summary,
        sections=sections,
        criteria=criteria,
        removed=(),
        struck=struck,
        sources=tuple(source for source in report.sources if source.doc_id not in hidden),
        notes=(*report.notes, note) if left_out else report.notes,
    )
    return Outward(trimmed, left_out)
