"""A written report as the pages draw it: sources numbered in order of first citation, each citation a chip
that opens the document viewer at its chunk with the quote highlighted (links relative to the run page)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from research.protocol.report import (
    AnalystNote,
    Citation,
    Claim,
    Conflict,
    CriterionResult,
    Override,
    Removed,
    Report,
    Section,
    Source,
    Struck,
)
from research.writing.edits import claim_key


def quote_href(doc_id: str, chunk_id: str, text: str) -> str:
    """The run's document viewer, relative to the run page: the cited chunk highlighted, the quote marked."""
    query = urlencode([("highlight", chunk_id), ("quote", text[:500])])
    return f"d/{quote(doc_id, safe='')}/?{query}#{quote(chunk_id, safe='')}"


@dataclass(frozen=True)
class ChipView:
    number: int
    title: str
    quote: str
    href: str


@dataclass(frozen=True)
class ClaimView:
    text: str
    date: str | None
    stale: bool
    chips: tuple[ChipView, ...]
    key: str = ""  # research/writing/edits.py's claim_key: what an analyst's edit names
    pinned_by: str = ""


@dataclass(frozen=True)
class ConflictView:
    about: str
    claims: tuple[ClaimView, ...]


@dataclass(frozen=True)
class SectionView:
    facet: str
    title: str
    claims: tuple[ClaimView, ...]  # the section's claims but those its conflicts show
    not_found: bool
    conflicts: tuple[ConflictView, ...] = ()
    notes: tuple[AnalystNote, ...] = ()  # analysts' notes on this section


VERDICTS = {"match": "Match", "no_match": "No match", "unknown": "Unknown"}


@dataclass(frozen=True)
class CriterionView:
    name: str
    description: str
    verdict: str
    verdict_label: str
    reason: str
    weight: float
    chips: tuple[ChipView, ...]
    override: Override | None = None
    judged_label: str = ""  # the judge's verdict an analyst overrode


@dataclass(frozen=True)
class SourceView:
    number: int
    source: Source
    href: str


@dataclass(frozen=True)
class ReportView:
    report: Report
    summary: tuple[ClaimView, ...]
    sections: tuple[SectionView, ...]
    sources: tuple[SourceView, ...]
    removed: tuple[Removed, ...]
    criteria: tuple[CriterionView, ...] = ()
    struck: tuple[Struck, ...] = ()
    notes: tuple[AnalystNote, ...] = ()  # analysts' notes on the whole report

    @property
    def fit_percent(self) -> int | None:
        return None if self.report.fit_score is None else round(self.report.fit_score * 100)

    @property
    def coverage_percent(self) -> int:
        return round((self.report.coverage or 0.0) * 100)

    @property
    def internal_sources(self) -> int:
        """How many of its sources were our own notes when it was written (left out of shares and exports)."""
        return sum(1 for source in self.report.sources if source.internal)

    @property
    def decided(self) -> int:
        return sum(1 for item in self.criteria if item.verdict != "unknown")

    @property
    def shown(self) -> int:
        conflicts = sum(len(group.claims) for section in self.sections for group in section.conflicts)
        return len(self.summary) + sum(len(section.claims) for section in self.sections) + conflicts

    @classmethod
    def of(
        cls,
        report: Report,
        *,
        chip_href: Callable[[str, str, str], str] = quote_href,
        source_href: Callable[[str], str] | None = None,
    ) -> ReportView:
        """The report as a page draws it; a chip opens ``chip_href(doc_id, chunk_id, quote)`` and a source
        ``source_href(doc_id)`` (by default the run's viewer, relative to the run page; "" for no link)."""
        source_href = source_href or (lambda doc_id: f"d/{quote(doc_id, safe='')}/")
        numbers = {source.doc_id: number for number, source in enumerate(report.sources, start=1)}
        titles = {source.doc_id: source.title for source in report.sources}

        def chips(citations: tuple[Citation, ...]) -> tuple[ChipView, ...]:
            """One chip per source, opening its first cited passage ("[3] [3]" would read as a slip)."""
            by_doc: dict[str, list[Citation]] = {}
            for c in citations:
                by_doc.setdefault(c.doc_id, []).append(c)
            return tuple(
                ChipView(
                    numbers.get(doc_id, 0),
                    titles.get(doc_id, doc_id) + (f" ({len(cited)} passages)" if len(cited) > 1 else ""),
                    cited[0].quote,
                    chip_href(doc_id, cited[0].chunk_id, cited[0].quote),
                )
                for doc_id, cited in by_doc.items()
            )

        def claim(item: Claim) -> ClaimView:
            return ClaimView(item.text, item.date, item.stale, chips(item.citations), claim_key(item), item.pinned_by)

        def criterion(item: CriterionResult) -> CriterionView:
            label = VERDICTS.get(item.verdict, item.verdict)
            judged = VERDICTS.get(item.override.verdict, item.override.verdict) if item.override else ""
            return CriterionView(
                item.name,
                item.description,
                item.verdict,
                label,
                item.reason,
                item.weight,
                chips(item.citations),
                item.override,
                judged,
            )

        def conflict(item: Conflict) -> ConflictView:
            return ConflictView(item.about, tuple(claim(c) for c in item.claims))

        def section(item: Section) -> SectionView:
            in_conflict = {c.text for group in item.conflicts for c in group.claims}
            plain = tuple(claim(c) for c in item.claims if c.text not in in_conflict)
            notes = tuple(note for note in report.analyst_notes if note.facet == item.facet)
            return SectionView(
                item.facet, item.title, plain, item.not_found, tuple(conflict(c) for c in item.conflicts), notes
            )

        sources = tuple(SourceView(numbers[s.doc_id], s, source_href(s.doc_id)) for s in report.sources)
        facets = {section.facet for section in report.sections}
        return cls(
            report=report,
            summary=tuple(claim(c) for c in report.summary),
            sections=tuple(section(s) for s in report.sections),
            sources=sources,
            removed=report.removed,
            criteria=tuple(criterion(c) for c in report.criteria),
            struck=report.struck,
            notes=tuple(note for note in report.analyst_notes if note.facet not in facets),  # the report's own
        )
