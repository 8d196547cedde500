"""The ICP check: each criterion of a workspace's ideal customer profile judged match / no match / unknown for
one company, from the sentences about that company that a run retrieved, with the quotes that decide it.

The offline judge understands these kinds of criterion, read from its plain-language description:

- a numeric range of employees or revenue ("between 50 and 500 employees", "revenue above $10M");
- a sales channel (``research.reports.channel``: "sells through resellers", "direct sales only");
- a presence in or outside a place (``research.reports.presence``: "has an office in Germany");
- a region of the headquarters ("headquartered in the EU", "based in North America", "in Germany", "DACH");
- a technology in use ("runs on Kubernetes", "uses Snowflake", "hébergé sur AWS");
- an event within a time window ("raised money in the last 12 months", "hiring in the past 6 months",
  "launched a product in the last 90 days", "a new executive in the last year");
- any other criterion a sentence states or denies outright (``research.reports.statements``).

A criterion no sentence decides is "unknown" offline (a language-model judge may decide it), with the evidence found
shown.
Never a verdict without evidence: "match" and "no_match" always cite the sentence that decides them, and
a criterion with no deciding sentence stays "unknown". The fit score weighs the decided criteria only;
the coverage (the share of criteria decided) is shown beside it.
"""

from __future__ import annotations

import calendar
import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, assert_never

from research.protocol.report import Citation, Claim, CriterionResult, Removed, Report, Verdict
from research.reports.amounts import AMOUNT, amount_value
from research.reports.answer import sources_of
from research.reports.channel import ChannelRule, channel_rule, through_channel
from research.reports.citations import MIN_QUOTE_CHARS, Evidence, by_chunk, claim_problem
from research.reports.figures import EMPLOYEE_WORDS, REVENUE_WORDS, figures_in
from research.reports.names import Company, known_as, names_note
from research.reports.places import place_countries, place_country, region_named
from research.reports.presence import PresenceRule, presence_rule, presence_stated
from research.reports.statements import StatementRule, before_keys, stated_in, statement_rule
from research.reports.structure import fields_of, record_about
from research.reports.text import fold, sentences
from research.retrieval.parsing.text import MONTHS

MAX_CRITERIA = 12
MAX_WEIGHT = 100.0
DEFAULT_WINDOW_DAYS = 365


@dataclass(frozen=True)
class Criterion:
    name: str
    description: str
    weight: float = 1.0

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "weight": self.weight}


def criteria_from(items: Any) -> list[Criterion]:
    """Criteria from JSON (``[{"name", "description", "weight"?}]``); ValueError naming each wrong item."""
    if not isinstance(items, list) or not items:
        raise ValueError("the criteria must be a non-empty JSON list of {name, description, weight}")
    if len(items) > MAX_CRITERIA:
        raise ValueError(f"at most {MAX_CRITERIA} criteria (there are {len(items)})")
    found: list[Criterion] = []
    problems: list[str] = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, Mapping):
            problems.append(f"criterion {number}: not an object")
            continue
        name, description = str(item.get("name", "")).strip(), str(item.get("description", "")).strip()
        weight = item.get("weight", 1)
        if not name:
            problems.append(f"criterion {number}: no name")
        elif isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 < weight <= MAX_WEIGHT:
            problems.append(f"criterion {number} ({name}): the weight must be a number above 0, at most {MAX_WEIGHT:g}")
        else:
            found.append(Criterion(name[:120], (description or name)[:400], float(weight)))
    if problems:
        raise ValueError("; ".join(problems))
    return found


def criteria_from_lines(text: str) -> list[Criterion]:
    """Criteria as the workspace page takes them: one a line, ``description`` or ``description | weight``."""
    items: list[dict[str, Any]] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        description, _, weight = line.partition("|")
        try:
            value = float(weight.strip()) if weight.strip() else 1.0
        except ValueError:
            problems.append(f"line {number}: the weight after '|' must be a number, not {weight.strip()!r}")
            continue
        items.append({"name": description.strip(), "description": description.strip(), "weight": value})
    if problems:
        raise ValueError("; ".join(problems))
    return criteria_from(items)


@dataclass(frozen=True)
class Judged:
    name: str
    verdict: Verdict
    reason: str
    citations: tuple[Citation, ...] = ()
    weight: float = 1.0


# -- reading a criterion ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NumericRule:
    metric: str  # "employees" | "revenue"
    low: float | None
    high: float | None

    def question(self, company: str) -> str:
        if self.metric == "employees":
            return f"How many employees (staff, headcount, people) does {company} have?"
        return f"What revenue (sales, ARR, turnover) does {company} report?"

    def describe(self) -> str:
        unit = " employees" if self.metric == "employees" else " revenue"
        if self.low is not None and self.high is not None:
            return f"between {_number(self.low)} and {_number(self.high)}{unit}"
        if self.low is not None:
            return f"at least {_number(self.low)}{unit}"
        return f"at most {_number(self.high or 0)}{unit}"


@dataclass(frozen=True)
class RegionRule:
    region: str
    countries: frozenset[str]

    def describe(self) -> str:
        return f"headquarters in {self.region}"

    def question(self, company: str) -> str:
        return f"Where is {company} headquartered (based, located, head office)?"


@dataclass(frozen=True)
class TechRule:
    term: str

    @property
    def terms(self) -> tuple[str, ...]:
        """The term, and its initials when it is a name of capitalised words ("Amazon Web Services": "AWS")."""
        words = self.term.split()
        initials = "".join(word[0] for word in words)
        return (self.term, initials) if len(words) > 1 and initials.isupper() else (self.term,)

    def describe(self) -> str:
        return f"uses {self.term}"

    def question(self, company: str) -> str:
        return f"Does {company} use {self.term} (runs on, built on, uses, stack)?"


@dataclass(frozen=True)
class EventRule:
    event: str  # a key of EVENT_WORDS
    days: int
    absent: bool = False  # the criterion asks that it did not happen ("No layoffs in the last 12 months")

    def describe(self) -> str:
        return f"{'no ' if self.absent else ''}{self.event} within {self.days} days"

    def question(self, company: str) -> str:
        return f"When did {company} report {self.event} ({', '.join(EVENT_WORDS[self.event][:5])})?"


Rule = NumericRule | PresenceRule | RegionRule | TechRule | EventRule | ChannelRule | StatementRule

_BETWEEN = re.compile(
    rf"(?i)(?:between|entre)\s+{AMOUNT}\s+(?:and|to|et|à)\s+{AMOUNT}|{AMOUNT}\s*(?:-|\u2013|to)\s*{AMOUNT}"
)
_AT_LEAST = re.compile(
    rf"(?i)(?:more than|over|at least|above|greater than|minimum of|plus de|au moins|sup[ée]rieur [àa]|>=?)\s*{AMOUNT}"
)
_AT_MOST = re.compile(
    rf"(?i)(?:fewer than|less than|under|below|at most|maximum of|up to|moins de|au plus|jusqu'[àa]|<=?)\s*{AMOUNT}"
)


def _number(value: float) -> str:
    for word, size in (("billion", 1e9), ("million", 1e6)):
        if value >= size:
            return f"{value / size:g} {word}"
    return f"{value:,.0f}"


def _numeric_rule(text: str) -> NumericRule | None:
    folded = text.casefold()
    if re.search(EMPLOYEE_WORDS, folded):
        metric = "employees"
    elif re.search(rf"\b{REVENUE_WORDS}\b", folded):
        metric = "revenue"
    else:
        return None
    if match := _BETWEEN.search(text):
        groups = list(match.groups())
        low_digits, low_scale, high_digits, high_scale = groups[0:4] if groups[0] else groups[4:8]
        high_scale = high_scale or None
        low_scale = low_scale or high_scale  # "$5-50 million": both in millions
        return NumericRule(metric, amount_value(low_digits, low_scale), amount_value(high_digits, high_scale))
    if match := _AT_LEAST.search(text):
        return NumericRule(metric, amount_value(match.group(1), match.group(2)), None)
    if match := _AT_MOST.search(text):
        return NumericRule(metric, None, amount_value(match.group(1), match.group(2)))
    return None


_HQ = re.compile(
    r"(?i)\b(?:headquartered|headquarters|hq|head office|registered office|based|si[eè]ge(?: social)?|bas[ée]e?s?"
    r"|install[ée]e?s?)\b[^.;]{0,40}?\b(?:in|à|a|en|au)\b\s+(.{2,80})"
)
_BASED = re.compile(r"\b([A-Z][\w\u00c0-\u017f]+(?:[ -][A-Z][\w\u00c0-\u017f]+)?)-based\b")


def _region_rule(text: str) -> RegionRule | None:
    folded = fold(text)
    if not re.search(r"\b(headquartered|headquarters|based|located|hq|in|siege|base|basee|situe|en|au)\b", folded):
        return None
    if region := region_named(text):
        return RegionRule(*region)
    countries = place_countries(text)
    if countries and re.search(r"\b(headquartered|headquarters|based|located|hq|siege|base|basee)\b", folded):
        return RegionRule(" or ".join(sorted(c.title() for c in countries)), frozenset(countries))
    return None


EVENT_WORDS: dict[str, tuple[str, ...]] = {
    "funding": ("raised", "raises", "raise", "funding", "series", "seed round", "round", "investment", "investors"),
    "executive": ("appointed", "appoints", "named", "joins as", "joined as", "hired", "new ceo", "new cto"),
    "hiring": ("hiring", "is hiring", "recruiting", "open roles", "open positions", "job openings", "hires"),
    "launch": ("launched", "launches", "released", "releases", "unveiled", "introduced", "announced"),
    "layoffs": ("laid off", "layoffs", "job cuts", "cut jobs", "redundancies"),
}
_EVENT_CUES = {
    "layoffs": re.compile(
        r"(?i)\b(laid off|lay(?:s|ing)? off|layoffs?|job cuts|cut \d+ jobs|cuts? \d+ (?:jobs|roles|positions)"
        r"|redundanc\w+|licenciements?|suppressions? de postes|plan de d[ée]parts?)"
    ),
    "funding": re.compile(
        r"(?i)\b(raised|raise|raises|funding|fund-?raising|funded|investment|series [a-e]|round|lev[ée]e? (?:de|des)"
        r" fonds|l[èe]ve|a lev[ée]|tour de table|s[ée]rie [a-e])\b"
    ),
    "executive": re.compile(
        r"(?i)\b(new (ceo|cto|cfo|coo|cro|executive|vp|chief)|executive hire|appointed|appoints|joins as|joined as"
        r"|(?:joins?|joined|hired|hires|named|promoted|start(?:s|ed)|t(?:akes|ook|aking) over|step(?:s|ped) in)\b"
        r"[^.;]{0,40}\bas\s+(?:its\s+|our\s+|their\s+|the\s+|new\s+|interim\s+)*"
        r"(?:chief|ceo|cto|cfo|coo|cro|cmo|vp|vice president|head of|president|managing director|general manager)"
        r"|leadership change|nomm[ée]e?|nomme|nouvelle? (?:dirigeante?|directeur|directrice|pr[ée]sidente?)"
        r"|rejoint .{0,40}(?:directeur|directrice|pr[ée]sident)|arriv[ée]e .{0,60}\b(?:au poste de|en tant que)\s"
        r"|au poste de (?:directeur|directrice|pr[ée]sident|DAF|DG)|succ[eè]de [àa]"
        r"|prend la (?:direction|pr[ée]sidence)"
        r"|t(?:akes|ook|aking) over from)"
    ),
    "hiring": re.compile(r"(?i)\b(hiring|hires|recruiting|open roles|headcount growth|recrute|recrutement)\b"),
    "launch": re.compile(r"(?i)\b(launch(ed|es)?|released?|new product|lance|lancement|lanc[ée]e?)\b"),
}
_WINDOW = re.compile(
    r"(?i)\b(?:(?:in|within|during|over) the (?:last|past) (\d+)\s*(day|week|month|year)s?"
    r"|(?:au cours|dans|lors) des (\d+) derni[eè]r(?:s|es) (jour|semaine|mois|an|ann[ée]e)s?)\b"
)
_WINDOW_ONE = re.compile(
    r"(?i)\b(?:in|within|during|over) the (?:last|past) (day|week|month|year)\b|\blast year\b"
    r"|\bla derni[eè]re ann[ée]e\b"
)
_UNIT_DAYS = {"day": 1.0, "week": 7.0, "month": 365 / 12, "year": 365.0}
_UNIT_DAYS |= {"jour": 1.0, "semaine": 7.0, "mois": 365 / 12, "an": 365.0, "année": 365.0, "annee": 365.0}
# "No layoffs in the last 12 months", "Has not cut jobs ...": the event's absence is what matches
_ABSENCE = re.compile(r"(?i)^\s*(?:no|has not|hasn't|did not|didn't|without|aucun|aucune|pas de|n'a pas)\b")


def _event_rule(text: str) -> EventRule | None:
    event = next((name for name, cue in _EVENT_CUES.items() if cue.search(text)), None)
    if event is None:
        return None
    absent = bool(_ABSENCE.match(text))
    if match := _WINDOW.search(text):
        count, unit = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        return EventRule(event, round(int(count) * _UNIT_DAYS[unit.casefold()]), absent)
    if match := _WINDOW_ONE.search(text):
        return EventRule(event, round(_UNIT_DAYS[(match.group(1) or "year").casefold()]), absent)
    if re.search(r"(?i)\b(recent(ly)?|r[ée]cente?s?|r[ée]cemment)\b", text):
        return EventRule(event, DEFAULT_WINDOW_DAYS, absent)
    return None


_TECH = re.compile(
    r"(?i)\b(?:run(?:s|ning)? (?:\w+ ){0,3}on|runs(?= \S+ as\b)|uses|using|use of|built on|built with|deployed on"
    r"|deploys on|on top of"
    r"|customer of|stack includes|hosted on|hosted in|hosts (?:\w+ ){0,3}(?:on|in)|h[ée]berg[ée]e?s? (?:sur|chez)"
    r"|h[ée]berge (?:\w+ ){0,3}(?:sur|chez)|utilise|tourne sur|repose sur|s['\u2019]appuie sur|bas[ée]e?s? sur)\s+(.+)"
)
_TECH_END = re.compile(
    r"(?i)[.;,()]| in production| for | as | comme | internally| in-house| in house| en interne| today\b| now\b"
    r"| currently\b| at present\b| aujourd['\u2019]hui\b| actuellement\b"
)


def _tech_rule(text: str) -> TechRule | None:
    match = _TECH.search(text)
    if match is None:
        return None
    term = _TECH_END.split(match.group(1))[0].strip()
    term = re.sub(r"(?i)^(?:(?:the|a|an|le|la|les)\s+|l['\u2019]\s*)", "", term)
    return TechRule(term) if 1 < len(term) <= 60 else None


def rule_for(criterion: Criterion) -> Rule | None:
    """The kind of criterion the offline judge can decide, read from its description (and name)."""
    for text in (criterion.description, criterion.name):
        for reader in (_numeric_rule, _event_rule, channel_rule, presence_rule, _region_rule, _tech_rule):
            rule = reader(text)
            if rule is not None:
                return rule
    return statement_rule(criterion.description or criterion.name)


def rule_label(criterion: Criterion) -> str:
    """How the offline judge reads the criterion, for the page that defines it."""
    rule = rule_for(criterion)
    return rule.describe() if rule is not None else "not decided offline (a language-model writer can)"


def search_question(criterion: Criterion, company: str) -> str:
    """What the agent searches for the criterion: the question the judge needs answered (a statement: the
    criterion's own words)."""
    rule = rule_for(criterion)
    if rule is None or isinstance(rule, StatementRule):
        return f"{criterion.description} ({company})"
    return rule.question(company)


# -- judging ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sentence:
    text: str
    evidence: Evidence

    def citation(self) -> Citation:
        item = self.evidence
        return Citation(chunk_id=item.chunk_id, doc_id=item.doc_id, quote=self.text, source=item.source)


def company_sentences(company: Company, evidence: Iterable[Evidence]) -> list[Sentence]:
    """Every sentence of the evidence that is about ``company`` (``Company.about``), once. A record (a CSV or CRM
    row as ingested) is about the company only when its name column names it (``record_about``): a row that
    mentions it elsewhere (a prospect's tech stack, a look-alike's row) is about another company."""
    seen: set[str] = set()
    found: list[Sentence] = []
    for item in evidence:
        owned = record_about(company, fields_of(item.text))
        if owned is False:
            continue
        previous = ""
        for text in sentences(item.text):
            quotable = len(fold(text)) >= MIN_QUOTE_CHARS  # "New CFO." backs nothing
            if quotable and text not in seen and (owned or company.about(text, item, previous)):
                seen.add(text)
                found.append(Sentence(text, item))
            previous = text
    return found


COUNTRY_FIELDS = ("hq_country", "headquarters_country", "country")
CITY_FIELDS = ("hq_city", "headquarters_city", "headquarters", "hq", "city")


def _judge_numeric(
    rule: NumericRule, found: Sequence[Sentence], company: Company, as_of: datetime.date
) -> Judged | None:
    """The first sentence that states the figure decides, a document dated more than ``STALE_DAYS`` before
    ``as_of`` only when no newer or undated one states it ("The start-up, which has 48 employees" in a 2023
    article loses to a careers page's "There are 186 of us today")."""
    for sentence in sorted(found, key=lambda sentence: _stale(sentence, as_of)):
        values = figures_in(sentence.text, rule.metric, company.names_someone_else)
        if not values:
            continue
        value = values[0]
        inside = (rule.low is None or value >= rule.low) and (rule.high is None or value <= rule.high)
        verdict: Verdict = "match" if inside else "no_match"
        reason = f"{_number(value)} {rule.metric} ({'within' if inside else 'outside'} {rule.describe()})"
        return Judged("", verdict, reason, (sentence.citation(),))
    return None


STALE_DAYS = 365


def _stale(sentence: Sentence, as_of: datetime.date) -> bool:
    """Whether the sentence's document is dated more than ``STALE_DAYS`` before ``as_of``."""
    span = date_span(sentence.evidence.date) if sentence.evidence.date else None
    return span is not None and (as_of - span[1]).days > STALE_DAYS


def _record_country(text: str) -> str | None:
    """A record's headquarters country, from its country field or else its city field."""
    fields = fields_of(text)
    for name in (*COUNTRY_FIELDS, *CITY_FIELDS):
        if fields.get(name) and (country := place_country(fields[name])) is not None:
            return country
    return None


def _based(text: str, company: Company) -> str | None:
    """The place of "Utrecht-based ..." when it is the company's: the company is named just after it ("the
    Utrecht-based payments company Tjalkwerf") or the sentence opens with it ("The Lyon-based startup ...")."""
    for match in _BASED.finditer(text):
        opens = text[: match.start()].strip(" \"'\u201c").casefold() in ("", "the", "a", "an")
        if opens or company.named_in(text[match.end() : match.end() + 40]):
            return match.group(1)
    return None


_CLAUSE_END = re.compile(r"[;.]|\s+(?:and|with|while|but|where|et|avec|mais)\s+")


def _judge_region(rule: RegionRule, found: Sequence[Sentence], company: Company) -> Judged | None:
    for sentence in found:
        country = _record_country(sentence.text)
        if country is None:
            match = _HQ.search(sentence.text)
            place = _CLAUSE_END.split(match.group(1))[0] if match else _based(sentence.text, company)
            country = place_country(place) if place else None
        if country is None:
            continue
        inside = country in rule.countries
        reason = f"headquartered in {country.title()} ({'in' if inside else 'not in'} {rule.region})"
        return Judged("", "match" if inside else "no_match", reason, (sentence.citation(),))
    return None


def _judge_presence(rule: PresenceRule, found: Sequence[Sentence]) -> Judged | None:
    """A sentence naming the presence decides a match; else one saying it is only in the place, no match."""
    verdicts = [
        (verdict, sentence) for sentence in found if (verdict := presence_stated(rule, sentence.text)) is not None
    ]
    for verdict, sentence in sorted(verdicts, key=lambda item: not item[0]):
        reason = f"{'it has' if verdict else 'it has not'} {rule.describe()}"
        return Judged("", "match" if verdict else "no_match", reason, (sentence.citation(),))
    return None


def _judge_channel(rule: ChannelRule, found: Sequence[Sentence]) -> Judged | None:
    """The first sentence that says how the company sells decides (a denial first: "does not sell through
    resellers"); a criterion asking for direct sales only takes the opposite verdict."""
    for sentence in found:
        through = through_channel(sentence.text)
        if through is not None:
            reason = "it sells through a channel" if through else "it sells only through its own team"
            match = through != rule.direct
            return Judged("", "match" if match else "no_match", reason, (sentence.citation(),))
    return None


_NEGATED = re.compile(
    r"(?i)\b(does not|doesn't|do not|don't|no longer|stopped|not|n['\u2019]utilise (?:pas|plus)|ne \w+ (?:pas|plus))\b"
)
# A change of tools: what comes after "from" / "replaced" is left, what comes after "to" / "with" is taken up
# ("moved from HubSpot to Salesforce", "replaced Salesforce with HubSpot", "a quitté Salesforce pour HubSpot").
_SWITCH = re.compile(
    r"(?i)\b(?:(?:migrat|mov|switch|transition)\w*(?: \w+){0,5} (?:away )?(?:from|off)|replac\w*|dropp\w*|retir\w*"
    r"|phas\w* out|ditch\w*|abandon\w*|sunset\w*|left|leaving|quitt\w*|migr\w* (?:depuis|de)|remplac\w*|l[âa]ch\w*)\b"
)
_TAKEN_UP = re.compile(r"(?i)\b(?:to|with|by|for|onto|par|pour|vers)\b")
# A product that connects to the tool is not the company's use of it ("integrates with Salesforce").
_INTEGRATION = re.compile(
    r"(?i)\b(?:integrat\w*|connectors?|connects?|connecting|sync\w*|plug-?ins?|add-?ons?|apps? for|listed on"
    r"|marketplace|int[ée]gr\w*|connecteurs?|compatible)\b"
)


def _tech_use(term: str, text: str) -> bool | None:
    """Whether a sentence holding ``term`` says the company uses it (True), does not or no longer does (False),
    or only that its product connects to it (None)."""
    before = text.casefold().split(term.casefold())[0][-60:]
    after = text.casefold().split(term.casefold(), 1)[-1][:25]
    if _INTEGRATION.search(before[-30:]) or _INTEGRATION.search(after):
        return None
    switches = list(_SWITCH.finditer(before))
    if switches:
        return bool(_TAKEN_UP.search(before[switches[-1].end() :]))
    return not _NEGATED.search(before)


def _judge_tech(rule: TechRule, found: Sequence[Sentence]) -> Judged | None:
    """The sentences that change the tool (moved off it, replaced it, moved to it) decide first; else the first
    plain use or denial (an integration decides nothing)."""
    said: list[tuple[bool, bool, Sentence]] = []
    for sentence in found:
        named = next((t for t in rule.terms if f" {fold(t)} " in f" {fold(sentence.text)} "), None)
        if named is not None and (uses := _tech_use(named, sentence.text)) is not None:
            before = sentence.text.casefold().split(named.casefold())[0][-60:]
            said.append((not _SWITCH.search(before), not uses, sentence))
    if not said:
        return None
    _, denied, sentence = min(said, key=lambda item: item[0])  # the first change, else the first sentence
    reason = f"it does not use {rule.term}" if denied else f"it uses {rule.term}"
    return Judged("", "no_match" if denied else "match", reason, (sentence.citation(),))


_ISO = re.compile(r"\b(20\d\d|19\d\d)-(\d\d)(?:-(\d\d))?\b")
_MONTH_YEAR = re.compile(r"(?i)\b(?:(\d{1,2})(?:er)?\s+)?([^\W\d_]{3,9})\.?\s+(?:(\d{1,2}),\s+)?(20\d\d|19\d\d)\b")
_YEAR = re.compile(r"\b(20\d\d|19\d\d)\b")


_DAY_MONTH = re.compile(r"(?i)\b(\d{1,2})(?:er|st|nd|rd|th)?\s+([^\W\d_]{3,9})\b(?!\.?,?\s+(?:19|20)\d\d)")


def date_span(text: str, year: int | None = None) -> tuple[datetime.date, datetime.date] | None:
    """The earliest and latest day a sentence's first date may mean ("March 2026": the 1st to the 31st); a day
    and month without a year ("on 1 September") are of ``year`` (its document's) when given."""
    if found := _ISO.search(text):
        month = int(found.group(2))
        if 1 <= month <= 12:
            return (
                _day(int(found.group(1)), month, found.group(3))
                if found.group(3)
                else _month(int(found.group(1)), month)
            )
    dated = [*_month_years(text), *(_days_of(text, year) if year is not None else [])]
    if dated:
        return min(dated, key=lambda item: item[0])[1]
    if found := _YEAR.search(text):
        return datetime.date(int(found.group(1)), 1, 1), datetime.date(int(found.group(1)), 12, 31)
    return None


Span = tuple[datetime.date, datetime.date]


def _month_years(text: str) -> list[tuple[int, Span]]:
    """The first "March 2026" / "1 September 2026" / "Sept. 1, 2026" of the text, with where it stands."""
    for found in _MONTH_YEAR.finditer(text):
        named = MONTHS.get(found.group(2).casefold())
        if named is not None:
            day = found.group(1) or found.group(3)
            return [
                (found.start(), _day(int(found.group(4)), named, day) if day else _month(int(found.group(4)), named))
            ]
    return []


def _days_of(text: str, year: int) -> list[tuple[int, Span]]:
    """The first day and month without a year ("on 1 September") of the text, in ``year``."""
    for found in _DAY_MONTH.finditer(text):
        named = MONTHS.get(found.group(2).casefold())
        if named is not None:
            return [(found.start(), _day(year, named, found.group(1)))]
    return []


DATELINE_CHARS = 80


def _sentence_span(sentence: Sentence) -> tuple[datetime.date, datetime.date] | None:
    """The date a sentence gives its event, a day and month without a year read in its document's year; else
    its document's date."""
    # its date, else its dateline ("Nantes, le 3 septembre 2026. Fourchelune annonce ...")
    document = date_span(sentence.evidence.date or sentence.evidence.text[:DATELINE_CHARS])
    return date_span(sentence.text, document[0].year if document else None) or document


def _day(year: int, month: int, day: str) -> tuple[datetime.date, datetime.date]:
    last = calendar.monthrange(year, month)[1]
    exact = datetime.date(year, month, max(1, min(int(day), last)))
    return exact, exact


def _month(year: int, month: int) -> tuple[datetime.date, datetime.date]:
    first = datetime.date(year, month, 1)
    following = datetime.date(year + (month == 12), month % 12 + 1, 1)
    return first, following - datetime.timedelta(days=1)


def _judge_event(rule: EventRule, found: Sequence[Sentence], as_of: datetime.date) -> Judged | None:
    cutoff = as_of - datetime.timedelta(days=rule.days)
    outside: Sentence | None = None
    for sentence in found:
        if not _EVENT_CUES[rule.event].search(sentence.text):
            continue
        span = _sentence_span(sentence)
        if span is None:
            continue
        earliest, latest = span
        if earliest >= cutoff and earliest <= as_of:
            reason = f"{rule.event} on {earliest.isoformat()[:7]} (within {rule.days} days of {as_of.isoformat()})"
            return Judged("", "no_match" if rule.absent else "match", reason, (sentence.citation(),))
        if latest < cutoff and outside is None:
            outside = sentence
    if outside is not None and not rule.absent:  # an old event does not show that none happened since
        span = _sentence_span(outside)
        when = span[1].isoformat()[:7] if span else "?"
        reason = f"the latest {rule.event} found is from {when}, more than {rule.days} days before {as_of.isoformat()}"
        return Judged("", "no_match", reason, (outside.citation(),))
    return None


def _another_party_first(rule: StatementRule, text: str, company: Company) -> bool:
    """Whether a name other than the company's stands between its last mention and the criterion's key words
    ("Sentinaire se dit rentable depuis 2025, ce que Leurrebois ne peut pas encore revendiquer": the sentence's
    first word is a name when the documents never write it in lower case, as "Revenue" and "Depuis" are)."""
    before = before_keys(rule, text)
    return company.names_someone_else(company.after_its_name(before).split())


def _judge_statement(
    rule: StatementRule, found: Sequence[Sentence], company: Company, as_of: datetime.date
) -> Judged | None:
    """A sentence that states or denies the criterion decides it, unless another party is named between the
    company and the key words: "Fourchelune Pay s'appuie sur Banque Ardelis, ... certifié ... ISO 27001" is the
    bank's certificate."""
    found = [s for s in found if not _another_party_first(rule, s.text, company)]
    verdict = stated_in(rule, [s.text for s in found], [s.evidence.date for s in found])
    if verdict is None or _stale(found[verdict[1]], as_of):
        return None  # what a page archived more than a year ago said is not what the company does now
    states, index = verdict
    reason = "a sentence about it states it" if states else "a sentence about it denies it"
    return Judged("", "match" if states else "no_match", reason, (found[index].citation(),))


class ModelJudge(Protocol):
    """A language model's judge for the criteria the rules cannot read (the openai writer's ``icp_judge``)."""

    def __call__(self, criterion: Criterion, company: str, evidence: Sequence[Evidence]) -> Judged: ...


def _judged_by(rule: Rule, found: Sequence[Sentence], company: Company, as_of: datetime.date) -> Judged | None:
    judged: Judged | None
    match rule:
        case NumericRule():
            judged = _judge_numeric(rule, found, company, as_of)
        case PresenceRule():
            judged = _judge_presence(rule, found)
        case ChannelRule():
            judged = _judge_channel(rule, found)
        case RegionRule():
            judged = _judge_region(rule, found, company)
        case TechRule():
            judged = _judge_tech(rule, found)
        case EventRule():
            judged = _judge_event(rule, found, as_of)
        case StatementRule():
            judged = _judge_statement(rule, found, company, as_of)
        case _:
            assert_never(rule)
    return judged


def judge(
    criterion: Criterion,
    company: Company | str,
    evidence: Sequence[Evidence],
    *,
    as_of: datetime.date,
    model: ModelJudge | None = None,
) -> Judged:
    """The criterion's verdict for ``company`` from ``evidence`` (never match or no_match without a quote); a
    criterion the rules cannot read goes to ``model`` when there is one. ``company`` typed as a name is known by
    the names the evidence shows (``known_as``). A criterion a sentence states or denies outright
    (``StatementRule``) goes to the model too when there is one; without it, the sentence decides."""
    company = company if isinstance(company, Company) else known_as(company, evidence)
    rule = rule_for(criterion)
    if (rule is None or isinstance(rule, StatementRule)) and model is not None:  # a model reads these better
        about_it = [item for item in evidence if company.named_in(item.text)] or list(evidence)
        answer = model(criterion, company.subject, about_it)
        return Judged(criterion.name, answer.verdict, answer.reason, answer.citations, criterion.weight)
    decided = _judged_by(rule, company_sentences(company, evidence), company, as_of) if rule is not None else None
    if decided is not None:
        return Judged(criterion.name, decided.verdict, decided.reason, decided.citations, criterion.weight)
    if rule is None:
        reason = "the offline judge cannot decide this kind of criterion (a language-model writer can)"
    elif isinstance(rule, StatementRule):
        reason = (
            f"no sentence about {company.subject} states or denies it outright (a language-model writer can judge it)"
        )
    else:
        reason = f"no sentence about {company.subject} in the searched corpora decides it"
    return Judged(criterion.name, "unknown", reason, (), criterion.weight)


def fit_score(judged: Sequence[Judged]) -> float | None:
    """The weighted share of the decided criteria that match (None when none is decided)."""
    decided = [item for item in judged if item.verdict != "unknown"]
    total = sum(item.weight for item in decided)
    if not decided or total <= 0:
        return None
    return sum(item.weight for item in decided if item.verdict == "match") / total


def coverage(judged: Sequence[Judged]) -> float:
    """The share of criteria decided (match or no match)."""
    return sum(1 for item in judged if item.verdict != "unknown") / len(judged) if judged else 0.0


def _checked(judged: Judged, chunks: Mapping[str, Evidence]) -> tuple[Judged, Removed | None]:
    """The citation check, fail closed: a verdict whose quote is not in its cited chunk becomes unknown."""
    if judged.verdict == "unknown":
        return judged, None
    claim = Claim(text=judged.citations[0].quote if judged.citations else "", citations=judged.citations)
    problem = claim_problem(claim, chunks)
    if problem is None:
        return judged, None
    return (
        Judged(judged.name, "unknown", f"its evidence failed the citation check ({problem})", (), judged.weight),
        Removed(text=f"{judged.name}: {judged.verdict}", reason=problem),
    )


def icp_report(
    company: str,
    criteria: Sequence[Criterion],
    evidence: Sequence[Evidence],
    *,
    as_of: datetime.date,
    model: ModelJudge | None = None,
) -> Report:
    """Every criterion judged for ``company`` from the run's ``evidence``, checked, with the fit score over the
    decided criteria and the coverage beside it."""
    chunks = by_chunk(evidence)
    known = known_as(company, evidence)
    results: list[Judged] = []
    removed: list[Removed] = []
    for criterion in criteria:
        judged, lost = _checked(judge(criterion, known, evidence, as_of=as_of, model=model), chunks)
        results.append(judged)
        removed += [lost] if lost else []
    cited = [Claim(text=j.reason, citations=j.citations) for j in results if j.citations]
    score, covered = fit_score(results), coverage(results)
    decided = sum(1 for j in results if j.verdict != "unknown")
    notes = [
        f"{decided} of {len(results)} criteria decided from the searched corpora (as of {as_of.isoformat()}).",
        names_note(known, (item.text for item in evidence)),
    ]
    return Report(
        template="icp",
        writer="rules" if model is None else "rules + openai",  # (docs/features.md, "ICP checks")
        subject=company,
        removed=tuple(removed),
        sources=sources_of(cited, evidence),
        notes=tuple(notes),
        criteria=tuple(
            CriterionResult(
                name=j.name,
                verdict=j.verdict,
                reason=j.reason,
                citations=tuple(
                    Citation(chunk_id=i.chunk_id, doc_id=i.doc_id, quote=i.quote, source=chunks[i.chunk_id].source)
                    for i in j.citations
                ),
                weight=j.weight,
                description=criterion.description,
            )
            for j, criterion in zip(results, criteria, strict=True)
        ),
        fit_score=score,
        coverage=covered,
    )
