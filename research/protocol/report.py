"""A written report, typed: claims with the quotes that back them, from the writer to the page and the exports.

Plain frozen dataclasses (no behaviour) shared by the writers (research/writing), the run's events
(``ReportWritten`` carries a whole report) and the Django side that stores and renders it. The JSON
shape is the one of ``python manage.py report ... --json``: ``to_dict`` / ``report_from_dict`` round-trip.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["match", "no_match", "unknown"]


@dataclass(frozen=True, kw_only=True)
class Citation:
    chunk_id: str
    doc_id: str
    quote: str
    source: str = ""  # the uploaded file's name (for a CSV row or a mail message, the file's)


@dataclass(frozen=True, kw_only=True)
class Claim:
    text: str
    citations: tuple[Citation, ...]
    date: str | None = None  # the newest date of its sources, ISO-8601, when they have one
    stale: bool = False  # every source is older than the report's freshness window
    pinned_by: str = ""  # an analyst pinned it to its section (research/writing/edits.py): who


@dataclass(frozen=True, kw_only=True)
class Removed:
    """A claim a writer made that the citation check did not let through, with the reason."""

    text: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class Struck:
    """A claim an analyst struck from the report, with their reason: kept out of its sections while its quotes
    are unchanged (research/writing/edits.py)."""

    text: str
    section: str  # the title of the section it stood in ("" for the summary)
    reason: str
    by: str
    at: str  # ISO-8601
    doc_ids: tuple[str, ...] = ()  # the documents it cited (a copy without our internal notes leaves it out)


@dataclass(frozen=True, kw_only=True)
class AnalystNote:
    """An analyst's note on a report: on one section (its facet) or on the whole report (facet "")."""

    facet: str
    text: str
    by: str
    at: str


@dataclass(frozen=True, kw_only=True)
class Override:
    """An analyst's override of an ICP verdict: what the judge decided, and the analyst's note."""

    verdict: Verdict  # the judge's verdict, replaced by the analyst's
    note: str
    by: str
    at: str


@dataclass(frozen=True, kw_only=True)
class Conflict:
    """Claims from different sources that state different amounts of one figure ("300+" and "310" customers),
    shown together rather than one picked."""

    about: str  # the figure's unit as the first claim writes it: "customers", "per hectare"
    claims: tuple[Claim, ...]


@dataclass(frozen=True, kw_only=True)
class Section:
    facet: str
    title: str
    claims: tuple[Claim, ...] = ()
    not_found: bool = False  # nothing supported was found for this facet
    conflicts: tuple[Conflict, ...] = ()  # each conflict's claims are in this or another section's claims too


@dataclass(frozen=True, kw_only=True)
class Source:
    doc_id: str
    title: str
    source: str
    date: str | None = None
    internal: bool = False  # one of our own notes when the report was written: kept out of shares and exports


@dataclass(frozen=True, kw_only=True)
class CriterionResult:
    """An ICP criterion judged for a company: never "match" or "no_match" without the citations that decide."""

    name: str
    verdict: Verdict
    reason: str
    citations: tuple[Citation, ...] = ()
    weight: float = 1.0
    description: str = ""
    override: Override | None = None  # an analyst overrode the judge's verdict (``verdict`` is theirs)


@dataclass(frozen=True, kw_only=True)
class Report:
    template: str  # "question", "competitor", "icp", "prospect"
    writer: str  # the writer that wrote the shown claims ("extractive", "openai")
    subject: str  # the question, or the company
    summary: tuple[Claim, ...] = ()
    sections: tuple[Section, ...] = ()
    removed: tuple[Removed, ...] = ()
    sources: tuple[Source, ...] = ()
    notes: tuple[str, ...] = field(default=())  # e.g. "the openai writer failed twice; extractive used"
    criteria: tuple[CriterionResult, ...] = ()  # an ICP check's verdicts
    fit_score: float | None = None  # an ICP check: the weighted share of decided criteria that match
    coverage: float | None = None  # an ICP check: the share of criteria decided
    struck: tuple[Struck, ...] = ()  # claims analysts struck (research/writing/edits.py applies their edits)
    analyst_notes: tuple[AnalystNote, ...] = ()


def claims_of(report: Report) -> list[Claim]:
    """The report's claims in reading order: the summary's, then each section's."""
    return [*report.summary, *(claim for section in report.sections for claim in section.claims)]


def citations_of(report: Report) -> list[Citation]:
    """Every citation of the report: its claims' and its ICP verdicts'."""
    return [c for claim in claims_of(report) for c in claim.citations] + [
        c for item in report.criteria for c in item.citations
    ]


def to_dict(report: Report) -> dict[str, Any]:
    """JSON-ready (tuples become lists)."""
    return dataclasses.asdict(report)


def claim_from_dict(data: dict[str, Any]) -> Claim:
    citations = tuple(Citation(**citation) for citation in data.get("citations", ()))
    return Claim(
        text=data["text"],
        citations=citations,
        date=data.get("date"),
        stale=bool(data.get("stale", False)),
        pinned_by=str(data.get("pinned_by") or ""),
    )


def report_from_dict(data: dict[str, Any]) -> Report:
    """The inverse of :func:`to_dict`; raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed dict."""
    sections = tuple(
        Section(
            facet=section["facet"],
            title=section["title"],
            claims=tuple(claim_from_dict(claim) for claim in section.get("claims", ())),
            not_found=bool(section.get("not_found", False)),
            conflicts=tuple(
                Conflict(about=item["about"], claims=tuple(claim_from_dict(claim) for claim in item["claims"]))
                for item in section.get("conflicts", ())
            ),
        )
        for section in data.get("sections", ())
    )
    return Report(
        template=data["template"],
        writer=data["writer"],
        subject=data["subject"],
        summary=tuple(claim_from_dict(claim) for claim in data.get("summary", ())),
        sections=sections,
        removed=tuple(Removed(**removed) for removed in data.get("removed", ())),
        sources=tuple(Source(**source) for source in data.get("sources", ())),
        notes=tuple(data.get("notes", ())),
        criteria=tuple(_criterion(item) for item in data.get("criteria", ())),
        fit_score=_fraction(data.get("fit_score")),
        coverage=_fraction(data.get("coverage")),
        struck=tuple(Struck(**{**item, "doc_ids": tuple(item.get("doc_ids", ()))}) for item in data.get("struck", ())),
        analyst_notes=tuple(AnalystNote(**item) for item in data.get("analyst_notes", ())),
    )


def _criterion(data: dict[str, Any]) -> CriterionResult:
    verdict = data["verdict"]
    if verdict not in ("match", "no_match", "unknown"):
        raise ValueError(f"unknown verdict {verdict!r}")
    return CriterionResult(
        name=data["name"],
        verdict=verdict,
        reason=data.get("reason", ""),
        citations=tuple(Citation(**citation) for citation in data.get("citations", ())),
        weight=float(data.get("weight", 1.0)),
        description=data.get("description", ""),
        override=_override(data.get("override")),
    )


def _override(data: dict[str, Any] | None) -> Override | None:
    if data is None:
        return None
    if data["verdict"] not in ("match", "no_match", "unknown"):
        raise ValueError(f"unknown verdict {data['verdict']!r}")
    return Override(verdict=data["verdict"], note=data.get("note", ""), by=data.get("by", ""), at=data.get("at", ""))


def _fraction(value: Any) -> float | None:
    return None if value is None else float(value)
