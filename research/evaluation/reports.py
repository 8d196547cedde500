"""Measuring written reports against a gold file (the demo corpus's research/demo/corpus/reports_gold.json, or a
benchmark corpus's gold.json, research/evaluation/benchmark.py): which of its key facts
the reports state, in the right facet (``fact_recall``; the share of all its facts too); how many shown claims
are gold facts of the right company, key or not (``claim_precision``), as TREC's nugget evaluations score vital
and acceptable nuggets: the gold lists every fact of each company the corpus states, far more than a report of
a few claims per facet can hold, so recall is measured on the key ones and precision on all; claims about
another company; whether every shown citation's quote is in its chunk; the facets reported empty although the
gold holds a fact for them; the ICP judge's decided accuracy, coverage, and the verdicts decided from another
quote than the one the gold says decides them. Framework-free: the caller gives the reports and the chunks'
texts.

Two gold layouts are read: the demo's (``competitors`` and ``prospects`` lists, many companies) and a benchmark
corpus's (one ``subject`` with its ``names``, ``facts``, ``icp_gold`` verdicts with their quotes, ``questions``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cleanco import basename
from rapidfuzz import fuzz

from research.protocol.report import Claim, Report, Section
from research.writing.citations import quote_in
from research.writing.text import fold

EVIDENCE_MATCH = 90.0  # rapidfuzz partial_ratio (folded) at which a cited quote is the gold's deciding quote


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
class Question:
    """A question a user asks of the corpus, its other wordings, and the parts any right answer holds."""

    question: str
    paraphrases: tuple[str, ...]
    parts: tuple[str, ...]

    def parts_found(self, text: str) -> int:
        folded = f" {fold(text)} "
        return sum(f" {fold(part)} " in folded for part in self.parts)


@dataclass(frozen=True)
class Gold:
    as_of: str
    icp: list[dict[str, Any]]
    facts: dict[str, list[GoldFact]]  # by competitor
    absent: dict[str, list[str]]  # facets deliberately without evidence, by competitor
    prospects: dict[str, dict[str, str]]  # company -> criterion name -> verdict
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # company -> the other names its documents use
    others: tuple[str, ...] = ()  # other companies the corpus names (look-alikes first)
    icp_quotes: dict[str, dict[str, str]] = field(default_factory=dict)  # company -> criterion -> deciding quote
    questions: tuple[Question, ...] = ()
    split: str = "dev"
    language: str = "en"

    @property
    def companies(self) -> list[str]:
        return [*self.facts, *(p for p in self.prospects if p not in self.facts), *self.others]

    def names_other(self, company: str, text: str) -> bool:
        """Whether ``text`` names another company of the corpus and none of ``company``'s names outside those
        (a look-alike's name holds the subject's short name: "Brightwell Energy" is not "Brightwell")."""
        folded = f" {fold(text)} "
        found = False
        for other in sorted((o for o in self.companies if o != company), key=len, reverse=True):
            for name in _name_forms(other):
                if f" {name} " in folded:
                    folded, found = folded.replace(f" {name} ", " | "), True
        own = [form for name in (company, *self.names.get(company, ())) for form in _name_forms(name)]
        return found and not any(f" {name} " in folded for name in own)


@functools.lru_cache(maxsize=1024)  # asked for every claim of every report, of the same few names
def _name_forms(name: str) -> frozenset[str]:
    """A company's name folded, with and without its legal form ("Brightwell People Ltd", "Brightwell People")."""
    return frozenset(form for form in (fold(name), fold(basename(name))) if form)


def _facts_of(company: str, items: Any) -> list[GoldFact]:
    return [
        GoldFact(
            company,
            str(fact["facet"]),
            str(fact["fact"]),
            tuple(str(term) for term in fact["all"]),
            tuple(str(facet) for facet in fact.get("also", ())),
            bool(fact.get("key", False)),
        )
        for fact in items
    ]


def _questions(items: Any) -> tuple[Question, ...]:
    return tuple(
        Question(
            str(item["question"]),
            tuple(str(p) for p in item.get("paraphrases", ())),
            tuple(str(p) for p in item["answer_parts"]),
        )
        for item in items
    )


def _benchmark_gold(data: Mapping[str, Any]) -> Gold:
    subject = data["subject"]
    company = str(subject["company"])
    verdicts = {str(name): item for name, item in data["icp_gold"].items()}
    return Gold(
        as_of=str(data["as_of"]),
        icp=list(data["icp"]),
        facts={company: _facts_of(company, data["facts"])},
        absent={company: [str(facet) for facet in data.get("absent", [])]},
        prospects={company: {name: str(item["verdict"]) for name, item in verdicts.items()}},
        names={company: tuple(str(name) for name in subject.get("names", ()))},
        others=tuple(str(name) for name in [*subject.get("lookalikes", ()), *subject.get("others", ())]),
        icp_quotes={company: {name: str(item["quote"]) for name, item in verdicts.items() if item.get("quote")}},
        questions=_questions(data.get("questions", ())),
        split=str(data.get("split", "dev")),
        language=str(data.get("language", "en")),
    )


def gold_from(data: Mapping[str, Any]) -> Gold:
    """The gold file's content (either layout); KeyError or TypeError on a malformed one."""
    if "subject" in data:
        return _benchmark_gold(data)
    facts: dict[str, list[GoldFact]] = {}
    absent: dict[str, list[str]] = {}
    for item in data["competitors"]:
        company = str(item["company"])
        facts[company] = _facts_of(company, item["facts"])
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
    facets_with_evidence: int = 0  # report sections whose facet has a gold fact
    empty_with_evidence: list[str] = field(default_factory=list)  # ... that the report said nothing in
    criteria: int = 0
    decided: int = 0
    decided_right: int = 0
    wrong_evidence: list[str] = field(default_factory=list)  # decided wrongly, from another quote than the gold's
    other_evidence: list[str] = field(default_factory=list)  # decided rightly from another quote than the gold's
    undecided: list[str] = field(default_factory=list)  # criteria judged unknown that the gold decides
    parts: int = 0  # answer parts asked, over every wording of every question
    parts_found: int = 0
    wordings: int = 0
    wordings_whole: int = 0  # answers holding every part their question asks for
    paraphrases: int = 0
    paraphrases_agreeing: int = 0  # paraphrase answers finding the same parts as the question's own wording
    partial_answers: list[str] = field(default_factory=list)
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
            "empty_facets_with_evidence": share(len(self.empty_with_evidence), self.facets_with_evidence),
            "icp_decided_accuracy": share(self.decided_right, self.decided),
            "icp_wrong_evidence": len(self.wrong_evidence),
            "icp_coverage": share(self.decided, self.criteria),
            "answer_parts_found": share(self.parts_found, self.parts),
            "answers_with_every_part": share(self.wordings_whole, self.wordings),
            "paraphrase_agreement": share(self.paraphrases_agreeing, self.paraphrases),
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
            "empty_facets": self.empty_with_evidence,
            "icp_wrong_evidence_examples": self.wrong_evidence,
            "icp_other_evidence": self.other_evidence,
            "icp_undecided": self.undecided,
            "partial_answers": self.partial_answers,
        }


def merged(parts: Sequence[ReportFigures]) -> ReportFigures:
    """One set of counts over several corpora's (their counts added, their lists joined)."""
    total = ReportFigures()
    for part in parts:
        for item in dataclasses.fields(ReportFigures):
            setattr(total, item.name, getattr(total, item.name) + getattr(part, item.name))
    return total


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


def _empty_counted(figures: ReportFigures, gold: Gold, company: str, by_facet: Mapping[str, Section]) -> None:
    """The facets the gold holds no fact for that the report said so of, and those it holds one for that the
    report left empty."""
    for facet in gold.absent.get(company, []):
        figures.absent += 1
        figures.absent_said += int(facet in by_facet and by_facet[facet].not_found)
    with_evidence = {facet for fact in gold.facts.get(company, []) for facet in fact.facets}
    for facet, section in by_facet.items():
        if facet in with_evidence:
            figures.facets_with_evidence += 1
            if not section.claims:
                figures.empty_with_evidence.append(f"{company} / {facet}")


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
    for claim in shown:  # a gold fact of the company is its own ("we agreed to acquire Marrowpine AI")
        if gold.names_other(company, claim.text) and not any(fact.stated_by(claim.text) for fact in facts):
            figures.wrong_company.append(f"{company}: {claim.text[:160]}")
    _empty_counted(figures, gold, company, by_facet)
    _citations_checked(figures, [*shown, *report.summary], chunk_text)


def answer_text(report: Report) -> str:
    """Everything a question's written answer states."""
    return " ".join(claim.text for claim in [*report.summary, *(c for s in report.sections for c in s.claims)])


def add_question(figures: ReportFigures, question: Question, answers: Sequence[Report]) -> None:
    """Count one question's answers, its own wording's first then its paraphrases': the parts each answer holds,
    and whether each paraphrase's answer finds the same parts as the question's own."""
    found = []
    for wording, report in zip((question.question, *question.paraphrases), answers, strict=True):
        text = f" {fold(answer_text(report))} "
        held = frozenset(part for part in question.parts if f" {fold(part)} " in text)
        found.append(held)
        figures.parts += len(question.parts)
        figures.parts_found += len(held)
        figures.wordings += 1
        figures.wordings_whole += int(len(held) == len(question.parts))
        if len(held) < len(question.parts):
            missing = ", ".join(part for part in question.parts if part not in held)
            figures.partial_answers.append(f"{wording[:120]} (missing: {missing})")
    figures.paraphrases += len(found) - 1
    figures.paraphrases_agreeing += sum(held == found[0] for held in found[1:])


def same_quote(gold: str, cited: str) -> bool:
    """Whether a cited quote is the gold's deciding quote: one holds the other, folded, within a small tolerance
    (a CSV row's quote may be its cells or its whole "column: value" text)."""
    a, b = fold(gold), fold(cited)
    return bool(a and b) and fuzz.partial_ratio(a, b) >= EVIDENCE_MATCH


def add_icp(figures: ReportFigures, gold: Gold, report: Report, chunk_text: ChunkText, seconds: float) -> None:
    """Count one ICP check: each criterion the judge decided is right when the gold says the same."""
    expected = gold.prospects.get(report.subject, {})
    quotes = gold.icp_quotes.get(report.subject, {})
    figures.icp_seconds.append(seconds)
    for item in report.criteria:
        figures.criteria += 1
        if item.verdict == "unknown":
            if expected.get(item.name, "unknown") != "unknown":
                figures.undecided.append(f"{report.subject} / {item.name}: {expected[item.name]} ({item.reason})")
            continue
        figures.decided += 1
        right = expected.get(item.name) == item.verdict
        figures.decided_right += int(right)
        if not right:
            figures.wrong_verdicts.append(f"{report.subject} / {item.name}: {item.verdict} ({item.reason})")
        gold_quote = quotes.get(item.name)
        if gold_quote and not any(same_quote(gold_quote, c.quote) for c in item.citations):
            quoted = " | ".join(c.quote[:120] for c in item.citations)
            found = figures.wrong_evidence if not right else figures.other_evidence
            found.append(f"{report.subject} / {item.name}: {item.verdict} from {quoted!r}")
    cited = [Claim(text=item.reason, citations=item.citations) for item in report.criteria if item.citations]
    _citations_checked(figures, cited, chunk_text)
