"""A company's timeline and price history across an investigation's runs, read from their written reports.

- **Events**: dated claims that tell something happened (funding, a hire or a departure, a launch, an acquisition
  or a merger, layoffs, a partnership, or a claim of the news or pricing facet whose words give a date), each with its
  citations. The date is the one the claim's words give ("on 1 December 2026", "in March 2026"), then its quotes';
  only when neither gives one is it the claim's ``date`` (its newest source's date). A claim seen in several runs
  (the same words, or the same quote) is one event, listed as first seen in the oldest of them.
- **Prices**: each plan's price as the reports state it ("Standard $70 /month minimum usage", "charges 40 dollars
  per seat each month for its Team plan"), one point per distinct price with the date it is stated for (as above,
  or the run's day when neither the claim nor its source gives one) and the run it was first seen in; a price
  that changed shows every value.

Events are listed newest first (what an analyst opens the investigation for is what happened lately; undated ones
last); a plan's prices oldest first, so that its history reads as a change ("$70 → $50").
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from research.protocol.report import Citation, Claim, Report
from research.retrieval.parsing.text import MONTHS
from research.writing.amounts import CURRENCY_CODES, CURRENCY_SIGNS
from research.writing.dates import date_span
from research.writing.structure import row_cells
from research.writing.text import fold

DatedFrom = Literal["text", "quote", "source", "run"]


@dataclass(frozen=True)
class RunReport:
    """A finished run's report, with the run's id and the day it was made (when its claims were first seen)."""

    run_id: int
    seen: datetime.date
    report: Report


@dataclass(frozen=True)
class When:
    start: datetime.date
    end: datetime.date
    dated_from: DatedFrom

    @property
    def label(self) -> str:
        """ "4 November 2025", "March 2026", "2026", or the span's two days."""
        start, end = self.start, self.end
        if start == end:
            return f"{start.day} {start:%B %Y}"
        if start.day == 1 and (end + datetime.timedelta(days=1)).day == 1:
            if start.month == 1 and end.month == 12 and start.year == end.year:
                return str(start.year)
            if (start.year, start.month) == (end.year, end.month):
                return f"{start:%B %Y}"
        return f"{start.day} {start:%B %Y} to {end.day} {end:%B %Y}"

    @property
    def iso(self) -> str:
        """The day ("2026-06-10"), the month ("2026-06") or the year ("2026") it names."""
        label = self.label
        if self.start == self.end:
            return self.start.isoformat()
        if label == str(self.start.year):
            return label
        if " to " not in label:
            return self.start.isoformat()[:7]
        return f"{self.start.isoformat()}/{self.end.isoformat()}"


@dataclass(frozen=True)
class Event:
    kind: str  # a key of KINDS
    text: str
    when: When | None
    citations: tuple[Citation, ...]
    first_run: int  # the run it was first seen in (its citations are that run's)
    first_seen: datetime.date
    runs: tuple[int, ...]  # every run that stated it, oldest first

    @property
    def kind_label(self) -> str:
        return KIND_LABELS[self.kind]


@dataclass(frozen=True)
class PricePoint:
    price: str  # as the report writes it: "$70 /month"
    text: str  # the claim that states it
    when: When  # the date the claim gives, or the run's day ("run")
    citations: tuple[Citation, ...]
    first_run: int
    first_seen: datetime.date
    runs: tuple[int, ...]


@dataclass(frozen=True)
class PlanHistory:
    plan: str
    points: tuple[PricePoint, ...]  # oldest first

    @property
    def changed(self) -> bool:
        return len(self.points) > 1


@dataclass(frozen=True)
class Timeline:
    subject: str
    events: tuple[Event, ...] = ()
    plans: tuple[PlanHistory, ...] = ()
    runs: tuple[int, ...] = ()  # the runs read, oldest first

    @property
    def empty(self) -> bool:
        return not self.events and not self.plans


# What makes a claim an event, most specific first; English and French.
KINDS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (key, label, re.compile(pattern, re.IGNORECASE))
    for key, label, pattern in (
        (
            "acquisition",
            "Acquisition or merger",
            r"\b(?:acquir(?:e|es|ed|ing)|acquisition|merger|merg(?:e|es|ed)\s+with|bought|rach[eè]t\w*|fusion)\b",
        ),
        (
            "layoffs",
            "Layoffs",
            r"\b(?:lay(?:s|ing)?\s+off|laid\s+off|layoffs?|redundanc(?:y|ies)|job\s+cuts|cut\s+[\d,]+\s+(?:jobs|roles)"
            r"|licenciements?)\b",
        ),
        (
            "funding",
            "Funding",
            r"\b(?:rais(?:e|es|ed|ing)\s+(?:\$|€|£|[A-Z]{3}\s?)?\d|funding\s+round|series\s+[a-f]\b|seed\s+round|"
            r"valuation|IPO|went\s+public|lev[ée]e\s+de\s+fonds|l[eè]ve\s+\d)",
        ),
        (
            "leadership",
            "Leadership change",
            r"\b(?:appoint(?:s|ed)?|nam(?:es|ed)\s+(?:\w+\s+){0,3}(?:CEO|CTO|CFO|COO|chief|president|head|VP)"
            r"|join(?:s|ed)\s+(?:the\s+company\s+|\w+\s+)?(?:as|from)|hir(?:es|ed)\s+(?:a\s+|its\s+)?(?:new\s+)?"
            r"(?:CEO|CTO|CFO|COO|chief|head|VP|vice)|promoted|steps?\s+down|stepped\s+down|resign(?:s|ed)"
            r"|nomm[ée]e?|succeeds?|succeeded)\b",
        ),
        (
            "launch",
            "Launch",
            r"\b(?:launch(?:es|ed)?|releas(?:es|ed)|general(?:ly)?\s+availab\w+|unveil(?:s|ed)?|introduc(?:es|ed)"
            r"|lanc(?:e|é|ement)|went\s+live|goes\s+live|announced\s+(?:the\s+)?(?:availability|launch))\b",
        ),
        (
            "partnership",
            "Partnership",
            r"\b(?:partner(?:s|ed|ship)?\s+with|partnership|alliance|teams?\s+up|teamed\s+up|integrat(?:es|ion)\s+with"
            r"|partenariat)\b",
        ),
    )
)
KIND_LABELS = {key: label for key, label, _ in KINDS} | {"pricing": "Pricing change", "news": "News"}
NEWS_FACETS = frozenset({"news", "press"})  # every claim of these is an event
PRICING_FACET = "pricing"
_ROW = re.compile(
    r"^\w[\w ]{0,30}:\s.*;\s*\w[\w ]{0,30}:\s"
)  # a record read as a claim ("date_seen: ...; company: ...")

# A price: a currency and a figure, then what it is per ("$70 /month", "EUR 13 per sensor / month",
# "40 dollars per seat each month", "49 € HT par mois").
_FIGURE = r"\d[\d,.]*(?:[ \u00a0\u202f]\d{3})*(?:\s?(?:k|m|million|bn))?"
_PER = (
    r"(?:\s*(?:/\s*[a-zA-Z]+(?:-[a-zA-Z]+)?|(?:per|par|a|an|each)\s+[a-zA-Z]+(?:\s*/\s*[a-zA-Z]+)?"
    r"(?:\s+(?:per|each|a)\s+[a-zA-Z]+)?|HT|TTC))*"
)
PRICE = re.compile(
    rf"(?:[{CURRENCY_SIGNS}]\s?{_FIGURE}|\b{CURRENCY_CODES}\s?{_FIGURE}"
    rf"|{_FIGURE}\s?(?:[{CURRENCY_SIGNS}]|{CURRENCY_CODES}\b|(?:US\s)?dollars\b|euros\b|pounds\b)){_PER}"
)
_CAPITALISED = r"[A-Z][\w+&'-]*"
# A plan's name right before its price: "Standard $70 /month", "Fleet: EUR 13 per sensor / month".
_PLAN_THEN_PRICE = re.compile(
    rf"(?:^|(?<=[\s(,;]))(?P<plan>{_CAPITALISED}(?:\s+{_CAPITALISED}){{0,2}})\s*(?::|-|\u2013|at|costs?|is)?\s+"
    rf"(?=(?P<price>{PRICE.pattern}))"
)
# A plan named as one: "its Team plan", "the Enterprise tier", "plan Pro", "formule Premium".
_NAMED_PLAN = re.compile(
    rf"(?P<plan>{_CAPITALISED}(?:\s+{_CAPITALISED}){{0,2}})\s+(?:plan|tier|edition|package|subscription|bundle)\b"
    rf"|\b(?:plan|tier|formule|offre)\s+(?P<after>{_CAPITALISED}(?:\s+{_CAPITALISED})?)"
)
_NOT_PLANS = frozenset(
    "the a an its their our from only just at for up starting now was is new all each per price prices pricing"
    " plan plans tier tiers total annual monthly usage le la les".split()
)


def timeline(reports: Iterable[RunReport]) -> Timeline:
    """The events and price histories of ``reports`` (in any order; read oldest run first)."""
    ordered = sorted(reports, key=lambda item: (item.seen, item.run_id))
    events = _Events()
    prices = _Prices()
    for item in ordered:
        for facet, claim in _claims(item.report):
            year = _year(claim.date)
            company = item.report.subject
            found = list(plan_prices(claim.text, company=company))
            for plan, price in found:
                prices.add(plan, price, claim, item, when=_when(claim, year) or _run_day(item.seen))
            said = _text_when(claim, year)
            precise = said is not None and said.label != str(said.start.year)
            kind = event_kind(claim.text, facet, dated=said is not None, priced=bool(found), day_or_month=precise)
            if kind:
                events.add(kind, claim, item, when=_when(claim, year))
    subject = ordered[-1].report.subject if ordered else ""
    return Timeline(
        subject=subject,
        events=tuple(events.sorted()),
        plans=tuple(prices.histories()),
        runs=tuple(item.run_id for item in ordered),
    )


# Advice and guesses are no event ("Buyers should model both price lists", "signals that it may"), nor is a launch
# named only to date something else ("the biggest change since we launched"); what lies ahead is one only with its
# day or month ("will close its Toronto office on 1 December 2026", not "will introduce a tier in 2026").
_NOT_HAPPENED = re.compile(
    r"\b(?:should|would|could|might|(?-i:may)|prepare|tracking\s+signals|devrait)\b"
    r"|\bsince\s+(?:we|it|they|the\s+company)\s+\w+",
    re.IGNORECASE,
)
_AHEAD = re.compile(r"\b(?:will|shall|plans?\s+to|expected\s+to|(?:is|are)\s+preparing|va\s+\w+er)\b", re.IGNORECASE)


def event_kind(text: str, facet: str, *, dated: bool = False, priced: bool = False, day_or_month: bool = False) -> str:
    """The kind of event ``text`` tells (a key of ``KIND_LABELS``), or "" when it tells none. ``dated``: its
    words give a date (a pricing or news claim without an event's words is an event only then); ``priced``: it
    states a plan's price (a price history's, not an event); ``day_or_month``: its words name a day or a month
    (what lies ahead is an event only then)."""
    if _ROW.match(text) or priced or _NOT_HAPPENED.search(text) or (_AHEAD.search(text) and not day_or_month):
        return ""
    for key, _, pattern in KINDS:
        if pattern.search(text):
            return key
    if facet == PRICING_FACET and dated:
        return "pricing"
    return "news" if facet in NEWS_FACETS and dated else ""


_PLAN_COLUMNS = frozenset("plan plans tier edition package formule offre forfait abonnement".split())


def _row_prices(text: str, company: str) -> list[tuple[str, str]] | None:
    """The ``(plan, price)`` pairs of a table row's claim (research.writing.structure), or None for prose: a plan
    column's cell with the row's price ("Plan: Essentials; Price: AUD 4.50 per hectare per year"), else each plan
    column's price, qualified by the row's first cell when that names what is priced ("Meter: Read units; Standard:
    $16 per million" is the Standard plan's read units, not the Standard plan's price)."""
    cells = row_cells(text)
    if cells is None:
        return None
    prices = [(header, _price(found.group(0))) for header, cell in cells if (found := PRICE.search(cell))]
    plans = [cell for header, cell in cells if fold(header) in _PLAN_COLUMNS]
    if plans:
        plan = _plan(plans[0], company)
        price = next((price for _, price in prices if price), "")
        return [(plan, price)] if plan and price else []
    label = cells[0][1] if not PRICE.search(cells[0][1]) else ""
    pairs = []
    for header, price in prices:
        plan = _plan(header.split(",")[0], company)
        if plan and price:
            pairs.append((f"{plan} ({label})" if label else plan, price))
    return list(dict.fromkeys(pairs))


def plan_prices(text: str, *, company: str = "") -> list[tuple[str, str]]:
    """The ``(plan, price)`` pairs ``text`` states: a table row's (``_row_prices``); else each plan named right
    before its price, or else one plan named as a plan ("its Team plan") with the sentence's first price."""
    if (row := _row_prices(text, company)) is not None:
        return row
    pairs: list[tuple[str, str]] = []
    for found in _PLAN_THEN_PRICE.finditer(text):
        plan, price = _plan(found.group("plan"), company), _price(found.group("price"))
        if plan and price:
            pairs.append((plan, price))
    if pairs:
        return list(dict.fromkeys(pairs))
    first = PRICE.search(text)
    price = _price(first.group(0)) if first else ""
    for named in _NAMED_PLAN.finditer(text if price else ""):
        plan = _plan(named.group("plan") or named.group("after") or "", company)
        if plan:
            return [(plan, price)]
    return []


def _plan(words: str, company: str) -> str:
    """A plan's name without the company's name or a sentence's opening word ("The Standard" -> "Standard")."""
    kept = words.split()
    folded_company = set(fold(company).split())
    while kept and (kept[0].casefold() in _NOT_PLANS or fold(kept[0]) in folded_company):
        kept = kept[1:]
    plan = " ".join(kept)
    if not plan or plan.casefold() in _NOT_PLANS or re.fullmatch(CURRENCY_CODES, plan) or plan.casefold() in MONTHS:
        return ""
    return plan


_PER_SOMETHING = re.compile(r"/|\b(?:per|par|a|an|each)\s|\b(?:HT|TTC)\b")


def _price(text: str) -> str:
    """The price as written, when it is a price "per" something ("$70 /month"; "$48M" is an amount, not a price)."""
    price = " ".join(text.split()).rstrip(" ,;.")
    return price if _PER_SOMETHING.search(price) else ""


def _claims(report: Report) -> list[tuple[str, Claim]]:
    """Each claim with its section's facet, the sections' first, then the summary's (a summary line repeats a
    section's claim; a question's answer has only a summary)."""
    found = [(section.facet, claim) for section in report.sections for claim in section.claims]
    return found + [("", claim) for claim in report.summary]


def _year(iso: str | None) -> int | None:
    return int(iso[:4]) if iso and iso[:4].isdigit() else None


def _text_when(claim: Claim, year: int | None) -> When | None:
    """The date the claim's words give, or else its first quote's that gives one."""
    span = date_span(claim.text, year)
    if span is not None:
        return When(span[0], span[1], "text")
    for citation in claim.citations:
        span = date_span(citation.quote, year)
        if span is not None:
            return When(span[0], span[1], "quote")
    return None


def _when(claim: Claim, year: int | None) -> When | None:
    """The claim's own date (its words', its quotes'), else its source's (``Claim.date``), else None."""
    if (said := _text_when(claim, year)) is not None:
        return said
    if claim.date:
        try:
            day = datetime.date.fromisoformat(claim.date[:10])
        except ValueError:
            return None
        return When(day, day, "source")
    return None


def _run_day(day: datetime.date) -> When:
    return When(day, day, "run")


def _keys(claim: Claim) -> set[str]:
    """What makes two claims one: the same words, or the same quote (folded)."""
    return {fold(claim.text)} | {fold(citation.quote) for citation in claim.citations if citation.quote.strip()}


@dataclass
class _Seen:
    """An event or a price point while it is gathered: where it was first seen and every run since."""

    kind: str
    claim: Claim
    when: When | None
    first_run: int
    first_seen: datetime.date
    runs: list[int] = field(default_factory=list)


class _Events:
    def __init__(self) -> None:
        self.items: list[_Seen] = []
        self.by_key: dict[str, _Seen] = {}

    def add(self, kind: str, claim: Claim, item: RunReport, *, when: When | None) -> None:
        keys = _keys(claim)
        seen = next((self.by_key[key] for key in keys if key in self.by_key), None)
        if seen is None:
            seen = _Seen(kind, claim, when, item.run_id, item.seen)
            self.items.append(seen)
        if item.run_id not in seen.runs:
            seen.runs.append(item.run_id)
        for key in keys:
            self.by_key.setdefault(key, seen)

    def sorted(self) -> list[Event]:
        events = [
            Event(
                kind=seen.kind,
                text=seen.claim.text,
                when=seen.when,
                citations=seen.claim.citations,
                first_run=seen.first_run,
                first_seen=seen.first_seen,
                runs=tuple(seen.runs),
            )
            for seen in self.items
        ]
        dated = sorted((e for e in events if e.when), key=_newest, reverse=True)
        return dated + [e for e in events if e.when is None]


def _newest(event: Event) -> tuple[datetime.date, datetime.date]:
    return (event.when.start, event.when.end) if event.when else (datetime.date.min, datetime.date.min)


class _Prices:
    def __init__(self) -> None:
        self.plans: dict[str, str] = {}  # folded name -> the name as first written
        self.points: dict[str, dict[str, _Seen]] = {}  # folded name -> folded price -> its point

    def add(self, plan: str, price: str, claim: Claim, item: RunReport, *, when: When) -> None:
        key = fold(plan)
        self.plans.setdefault(key, plan)
        points = self.points.setdefault(key, {})
        value = re.sub(r"\s+", "", price.casefold())
        seen = points.get(value)
        if seen is None:
            seen = points[value] = _Seen(price, claim, when, item.run_id, item.seen)
        if item.run_id not in seen.runs:
            seen.runs.append(item.run_id)

    def histories(self) -> list[PlanHistory]:
        histories = []
        for key, points in self.points.items():
            ordered = sorted(points.values(), key=lambda seen: seen.when.start if seen.when else seen.first_seen)
            histories.append(
                PlanHistory(
                    plan=self.plans[key],
                    points=tuple(
                        PricePoint(
                            price=seen.kind,
                            text=seen.claim.text,
                            when=seen.when or _run_day(seen.first_seen),
                            citations=seen.claim.citations,
                            first_run=seen.first_run,
                            first_seen=seen.first_seen,
                            runs=tuple(seen.runs),
                        )
                        for seen in ordered
                    ),
                )
            )
        return sorted(histories, key=lambda history: (not history.changed, history.plan.casefold()))


def sources(citations: Sequence[Citation]) -> str:
    """The citations' sources, once each: "pricing.html; press.md"."""
    return "; ".join(dict.fromkeys(c.source or c.doc_id for c in citations))
