"""Measuring written reports against a gold file (research/demo/corpus/reports_gold.json): which of its key facts
the reports state, in the right facet (``fact_recall``; the share of all its facts too); how many shown claims
are gold facts of the right company, key or not (``claim_precision``), as TREC's nugget evaluations score vital
and acceptable nuggets: the gold lists every fact of each company the corpus states, far more than a report of
a few claims per facet can hold, so recall is measured on the key ones and precision on all; claims about
another company; whether every shown citation's quote is in its chunk; the ICP judge's decided accuracy and
coverage. Framework-free: the caller gives the reports and the chunks' texts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from research.protocol.report import Claim, Report, Section
from research.reports.citations import quote_in
from research.reports.text import fold, names_company


@dataclass(frozen=True)
class GoldFact:
    company: str
    facet: str
    fact: str
    terms: tuple[str, ...]
    also: tuple[str, ...] = ()  # other facets the sentence fits just as well (a launch that is news too)
    key: bool = False  # one of the facts a report on the company must state (``fact_recall``)

    @property
    def facets(self) -> tuple[str, ...]:
        return (self.facet, *self.also)

    def stated_by(self, text: str) -> bool:
        """Whether ``text`` holds every term of the fact (folded: case, accents, punctuation)."""
        folded = f" {fold(text)} "
        return all(f" {fold(term)} " in folded for term in self.terms)


@dataclass(frozen=True)
class Gold:
    as_of: str
    icp: list[dict[str, Any]]
    facts: dict[str, list[GoldFact]]  # by competitor
    absent: dict[str, list[str]]  # facets deliberately without evidence, by competitor
    prospects: dict[str, dict[str, str]]  # company -> criterion name -> verdict

    @property
    def companies(self) -> list[str]:
        return [*self.facts, *self.prospects]


def gold_from(data: Mapping[str, Any]) -> Gold:
    """The gold file's content; KeyError or TypeError on a malformed one."""
    facts: dict[str, list[GoldFact]] = {}
    absent: dict[str, list[str]] = {}
    for item in data["competitors"]:
        company = str(item["company"])
        facts[company] = [
            GoldFact(
                company,
                str(fact["facet"]),
                str(fact["fact"]),
                tuple(str(term) for term in fact["all"]),
                tuple(str(facet) for facet in fact.get("also", ())),
                bool(fact.get("key", False)),
            )
            for fact in item["facts"]
        ]
        absent[company] = [str(facet) for facet in item.get("absent", [])]
    prospects = {str(item["company"]): {str(k): str(v) for k, v in item["icp"].items()} for item in data["prospects"]}
    return Gold(str(data["as_of"]), list(data["icp"]), facts, absent, prospects)


@dataclass
class ReportFigures:
    """Counts over every report; ``figures()`` turns them into the shares the README quotes."""

    facts: int = 0  # key facts
    facts_in_facet: int = 0
    facts_anywhere: int = 0
    all_facts: int = 0  # every gold fact
    all_facts_in_facet: int = 0
    claims: int = 0
    claims_matching: int = 0
    wrong_company: list[str] = field(default_factory=list)
    citations: int = 0
    citations_verified: int = 0
    absent: int = 0
    absent_said: int = 0
    criteria: int = 0
    decided: int = 0
    decided_right: int = 0
    seconds: list[float] = field(default_factory=list)
    icp_seconds: list[float] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)  # key facts not stated in their facet
    unmatched: list[str] = field(default_factory=list)  # shown claims that are no gold fact of the company
    wrong_verdicts: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        def share(part: int, whole: int) -> float | None:
            return round(part / whole, 3) if whole else None

        def mean(values: list[float]) -> float | None:
            return round(sum(values) / len(values), 2) if values else None

        return {
            "fact_recall": share(self.facts_in_facet, self.facts),
            "fact_recall_any_section": share(self.facts_anywhere, self.facts),
            "fact_recall_all_facts": share(self.all_facts_in_facet, self.all_facts),
            "claim_precision": share(self.claims_matching, self.claims),
            "citations_verified": share(self.citations_verified, self.citations),
            "wrong_company_claims": len(self.wrong_company),
            "absent_facets_said": share(self.absent_said, self.absent),
            "icp_decided_accuracy": share(self.decided_right, self.decided),
            "icp_coverage": share(self.decided, self.criteria),
            "seconds_per_report": mean(self.seconds),
            "seconds_per_icp_check": mean(self.icp_seconds),
            "counts": {
                "key_facts": self.facts,
                "gold_facts": self.all_facts,
                "claims_shown": self.claims,
                "citations": self.citations,
                "criteria_judged": self.criteria,
            },
            "wrong_company_examples": self.wrong_company[:10],
            "missed_facts": self.missed,
            "claims_not_in_gold": self.unmatched,
            "wrong_verdicts": self.wrong_verdicts,
        }


ChunkText = Callable[[str, str], str | None]  # (doc_id, chunk_id) -> the chunk's text, None when not stored


def _citations_checked(figures: ReportFigures, claims: Sequence[Claim], chunk_text: ChunkText) -> None:
    for claim in claims:
        for citation in claim.citations:
            figures.citations += 1
            text = chunk_text(citation.doc_id, citation.chunk_id)
            figures.citations_verified += int(text is not None and quote_in(citation.quote, text))


def _facts_counted(
    figures: ReportFigures,
    facts: Sequence[GoldFact],
    by_facet: Mapping[str, Section],
    shown: Sequence[Claim],
    company: str,
) -> None:
    for fact in facts:
        sections = [by_facet[facet] for facet in fact.facets if facet in by_facet]
        in_facet = any(fact.stated_by(c.text) for section in sections for c in section.claims)
        figures.all_facts += 1
        figures.all_facts_in_facet += int(in_facet)
        if not fact.key:
            continue
        figures.facts += 1
        figures.facts_in_facet += int(in_facet)
        figures.facts_anywhere += int(any(fact.stated_by(c.text) for c in shown))
        if not in_facet:
            elsewhere = [f for f, section in by_facet.items() if any(fact.stated_by(c.text) for c in section.claims)]
            where = f" (stated under {', '.join(elsewhere)})" if elsewhere else ""
            figures.missed.append(f"{company} / {fact.facet}: {fact.fact}{where}")


def add_competitor(figures: ReportFigures, gold: Gold, report: Report, chunk_text: ChunkText, seconds: float) -> None:
    """Count one competitor report (``report.subject`` is the company)."""
    company = report.subject
    facts = gold.facts.get(company, [])
    by_facet = {section.facet: section for section in report.sections}
    shown = [claim for section in report.sections for claim in section.claims]
    figures.seconds.append(seconds)
    _facts_counted(figures, facts, by_facet, shown, company)
    for section in report.sections:
        for claim in section.claims:
            if any(fact.stated_by(claim.text) for fact in facts):
                figures.claims_matching += 1
            else:
                figures.unmatched.append(f"{company} / {section.facet}: {claim.text[:200]}")
    figures.claims += len(shown)
    others = [name for name in gold.companies if name != company]
    for claim in shown:
        if not names_company(company, claim.text) and any(names_company(other, claim.text) for other in others):
            figures.wrong_company.append(f"{company}: {claim.text[:160]}")
    for facet in gold.absent.get(company, []):
        figures.absent += 1
        figures.absent_said += int(facet in by_facet and by_facet[facet].not_found)
    _citations_checked(figures, [*shown, *report.summary], chunk_text)


def add_icp(figures: ReportFigures, gold: Gold, report: Report, chunk_text: ChunkText, seconds: float) -> None:
    """Count one ICP check: each criterion the judge decided is right when the gold says the same."""
    expected = gold.prospects.get(report.subject, {})
    figures.icp_seconds.append(seconds)
    for item in report.criteria:
        figures.criteria += 1
        if item.verdict == "unknown":
            continue
        figures.decided += 1
        right = expected.get(item.name) == item.verdict
        figures.decided_right += int(right)
        if not right:
            figures.wrong_verdicts.append(f"{report.subject} / {item.name}: {item.verdict} ({item.reason})")
    cited = [Claim(text=item.reason, citations=item.citations) for item in report.criteria if item.citations]
    _citations_checked(figures, cited, chunk_text)
