"""Analysts' edits applied to a written report: struck claims, claims pinned to a section, notes, verdict overrides.

Edits are kept per investigation (research/edits) and applied to every report of its runs when it is read, so a
re-run or a scheduled run shows them too. A claim is known by its evidence, not its wording: ``claim_key`` is the
claim's cited documents and folded quotes, so a struck claim stays struck in a later run while its quotes are
unchanged (whatever the writer's words), and comes back when its evidence changes. The latest edit of a claim or
criterion wins; a pin to a section the report does not have is left unapplied.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from research.protocol.report import (
    AnalystNote,
    Claim,
    Conflict,
    CriterionResult,
    Override,
    Report,
    Section,
    Struck,
    Verdict,
)
from research.writing.icp import coverage, fit_score
from research.writing.text import fold

EditKind = Literal["strike", "pin", "note", "override"]


@dataclass(frozen=True, kw_only=True)
class Edit:
    kind: EditKind
    by: str  # the analyst's name
    at: str  # ISO-8601
    claim_key: str = ""  # strike, pin: the claim (``claim_key``)
    facet: str = ""  # pin: the section it belongs in; note: its section ("" for the whole report)
    criterion: str = ""  # override: the criterion's name
    verdict: Verdict = "unknown"  # override: the analyst's verdict
    text: str = ""  # strike: the reason; note: the note; override: the analyst's note


def claim_key(claim: Claim) -> str:
    """The claim as its evidence names it: a digest of its cited documents and folded quotes."""
    quotes = sorted({(citation.doc_id, fold(citation.quote)) for citation in claim.citations})
    return hashlib.sha256(json.dumps(quotes or [fold(claim.text)]).encode()).hexdigest()[:24]


def _latest(edits: Sequence[Edit], kind: EditKind, key: str) -> dict[str, Edit]:
    """The latest edit of each claim (or criterion) of ``kind``, by ``key`` ("claim_key" or "criterion")."""
    return {getattr(edit, key): edit for edit in edits if edit.kind == kind}


def apply_edits(report: Report, edits: Sequence[Edit]) -> Report:
    """``report`` as the analysts left it: struck claims out of the summary and sections (listed in ``struck``),
    pinned claims in their section (``pinned_by``), notes attached, overridden verdicts with the judge's kept (and
    the fit score and coverage counted again)."""
    if not edits:
        return report
    strikes, pins = _latest(edits, "strike", "claim_key"), _latest(edits, "pin", "claim_key")
    facets = {section.facet for section in report.sections}
    pins = {key: edit for key, edit in pins.items() if edit.facet in facets}
    struck: dict[tuple[str, str], Struck] = {}  # by claim and wording: claims that share their quotes go together

    def kept(claims: Sequence[Claim], where: str) -> list[Claim]:
        found = []
        for claim in claims:
            key = claim_key(claim)
            if key in strikes:
                edit, docs = strikes[key], tuple(dict.fromkeys(c.doc_id for c in claim.citations))
                gone = Struck(text=claim.text, section=where, reason=edit.text, by=edit.by, at=edit.at, doc_ids=docs)
                struck.setdefault((key, fold(claim.text)), gone)
            else:
                found.append(claim)
        return found

    placed: dict[str, list[Claim]] = {section.facet: [] for section in report.sections}
    for section in report.sections:
        for claim in kept(section.claims, section.title):
            pin = pins.get(claim_key(claim))
            placed[pin.facet if pin else section.facet].append(
                dataclasses.replace(claim, pinned_by=pin.by) if pin else claim
            )
    summary = kept(report.summary, "")  # after the sections: a struck claim is listed under its section's title
    sections = tuple(_section(section, placed[section.facet]) for section in report.sections)
    criteria = _overridden(report.criteria, _latest(edits, "override", "criterion"))
    rescored = criteria != report.criteria
    notes = tuple(AnalystNote(facet=e.facet, text=e.text, by=e.by, at=e.at) for e in edits if e.kind == "note")
    return dataclasses.replace(
        report,
        summary=tuple(summary),
        sections=sections,
        criteria=criteria,
        fit_score=fit_score(criteria) if rescored else report.fit_score,
        coverage=coverage(criteria) if rescored else report.coverage,
        struck=(*report.struck, *struck.values()),
        analyst_notes=(*report.analyst_notes, *notes),
    )


def _section(section: Section, claims: list[Claim]) -> Section:
    """The section with its claims after the edits, keeping its conflicts whose claims all still stand in it."""
    here = {claim_key(claim): claim for claim in claims}
    conflicts = tuple(
        Conflict(about=group.about, claims=tuple(here[claim_key(c)] for c in group.claims))
        for group in section.conflicts
        if all(claim_key(c) in here for c in group.claims)
    )
    return dataclasses.replace(
        section, claims=tuple(claims), conflicts=conflicts, not_found=section.not_found and not claims
    )


def _overridden(criteria: Sequence[CriterionResult], overrides: dict[str, Edit]) -> tuple[CriterionResult, ...]:
    result = []
    for item in criteria:
        edit = overrides.get(item.name)
        if edit is None or (edit.verdict == item.verdict and not edit.text):
            result.append(item)
            continue
        override = Override(verdict=item.verdict, note=edit.text, by=edit.by, at=edit.at)
        result.append(dataclasses.replace(item, verdict=edit.verdict, override=override))
    return tuple(result)
