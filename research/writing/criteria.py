"""An ICP criterion and how the offline judge reads it: the workspace's profile as criteria (JSON, or a line
each on the workspace page), and each criterion's rule (a numeric range, a region of the headquarters, a
technology, an event in a time window, a sales channel, a presence, or a statement) with the question its
rollout searches. research/writing/icp.py judges them."""

from __future__ import annotations

import datetime
import functools
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from research.writing.amounts import AMOUNT, CURRENCY_CODES, CURRENCY_SIGNS, amount_value, currency_in
from research.writing.buyers import BuyerRule, buyer_rule
from research.writing.channel import ChannelRule, channel_rule
from research.writing.dates import date_span
from research.writing.figures import ARR_WORDS, EMPLOYEE_WORDS, REVENUE_WORDS, in_digits
from research.writing.founded import FoundedRule, founded_rule
from research.writing.places import names_a_state, place_countries, region_named, state_of, states_named
from research.writing.presence import PresenceRule, presence_rule
from research.writing.residency import CLOUDS, HostingRule, hosting_rule
from research.writing.statements import CODE, StatementRule, statement_rule
from research.writing.text import fold

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
class NumericRule:
    metric: str  # "employees" | "revenue" | what else it counts, folded ("clubs", "customers", "communes")
    low: float | None
    high: float | None
    currency: str | None = None  # money's ISO code ("EUR"): a figure in another currency is not compared
    above: bool = False  # "more than 150": 150 is not enough ("at least 150", "150+": it is)
    below: bool = False  # "fewer than 200": 200 is too many

    def holds(self, value: float) -> bool:
        """Whether ``value`` is within the bounds."""
        low = self.low is None or value > self.low or (value == self.low and not self.above)
        high = self.high is None or value < self.high or (value == self.high and not self.below)
        return low and high

    def question(self, company: str) -> str:
        if self.metric == "employees":
            return f"How many employees (staff, headcount, people) does {company} have?"
        if self.metric in ("revenue", "arr"):
            return f"What revenue (sales, ARR, turnover) does {company} report?"
        return f"How many {self.metric} does {company} have?"

    def describe(self) -> str:
        unit = " ARR" if self.metric == "arr" else f" {self.metric}"
        if self.low is not None and self.high is not None:
            return f"between {amount_words(self.low)} and {amount_words(self.high)}{unit}"
        if self.low is not None:
            return f"{'more than' if self.above else 'at least'} {amount_words(self.low)}{unit}"
        return f"{'fewer than' if self.below else 'at most'} {amount_words(self.high or 0)}{unit}"


@dataclass(frozen=True)
class RegionRule:
    region: str
    countries: frozenset[str]
    state: str = ""  # first-level regions of a country, folded, "|" between ("auvergne rhone alpes"): the head office's

    def describe(self) -> str:
        return f"headquarters in {self.region}"

    def question(self, company: str) -> str:
        return f"Where is {company} headquartered (based, located, head office)?"


# The short names documents use for a vendor's product ("Azure" for "Microsoft Azure").
_ALIASES = {"microsoft azure": ("Azure",), "google cloud": ("GCP", "Google Cloud Platform"), "gcp": ("Google Cloud",)}
_AS_NAMED = re.compile(r"^(?:Microsoft|Amazon|Oracle|IBM)\s+(?=\S)")


@dataclass(frozen=True)
class TechRule:
    term: str
    absent: bool = False  # the criterion asks that it is not used ("Runs its platform without AWS, Azure or GCP")
    others: tuple[str, ...] = ()  # other tools that count as the term does ("AWS, Microsoft Azure or Google Cloud")

    @property
    def terms(self) -> tuple[str, ...]:
        """Each tool, its initials when it is a name of capitalised words ("Amazon Web Services": "AWS") and the
        short names documents use ("Azure" for "Microsoft Azure")."""
        found: list[str] = []
        for tool in (self.term, *self.others):
            words = tool.split()
            initials = "".join(word[0] for word in words)
            found += [tool, *([initials] if len(words) > 1 and initials.isupper() else [])]
            found += [*_ALIASES.get(tool.casefold(), ()), *([_AS_NAMED.sub("", tool)] if _AS_NAMED.match(tool) else [])]
        return tuple(dict.fromkeys(found))

    @property
    def hosting(self) -> bool:
        """Whether the criterion asks where the platform is hosted (its tools are clouds)."""
        clouds = {cloud.casefold() for cloud in CLOUDS}
        return all(tool.casefold() in clouds for tool in (self.term, *self.others))

    def describe(self) -> str:
        tools = " or ".join((self.term, *self.others))
        return f"does not use {tools}" if self.absent else f"uses {tools}"

    def question(self, company: str) -> str:
        return f"Does {company} use {self.term} (runs on, built on, uses, stack)?"


@dataclass(frozen=True)
class EventRule:
    event: str  # a key of EVENT_WORDS
    days: int
    absent: bool = False  # the criterion asks that it did not happen ("No layoffs in the last 12 months")
    since: datetime.date | None = None  # the window's first day when the criterion names it ("since 1 December 2025")
    until: datetime.date | None = None  # and its last where it names one ("au second semestre 2025", "in 2025")

    def describe(self) -> str:
        window = f"since {self.since.isoformat()}" if self.since else f"within {self.days} days"
        window = f"{window} until {self.until.isoformat()}" if self.until else window
        return f"{'no ' if self.absent else ''}{self.event} {window}"

    def question(self, company: str) -> str:
        return f"When did {company} report {self.event} ({', '.join(EVENT_WORDS[self.event][:5])})?"


Rule = (
    NumericRule
    | HostingRule
    | PresenceRule
    | RegionRule
    | TechRule
    | EventRule
    | ChannelRule
    | BuyerRule
    | FoundedRule
    | StatementRule
)

_BETWEEN = re.compile(
    rf"(?i)(?:between|entre)\s+{AMOUNT}\s+(?:and|to|et|à)\s+{AMOUNT}|{AMOUNT}\s*(?:-|\u2013|to)\s*{AMOUNT}"
)
# Bounds that exclude their own figure ("more than 150", "plus de 150", "fewer than 200", "moins de 200"), then
# those that keep it ("at least 150", "au plus 200")
_STRICT_LOW = r"more than|over|above|greater than|plus de|sup[ée]rieur [àa]|>(?!=)"
_STRICT_HIGH = r"fewer than|less than|under|below|moins de|inf[ée]rieur [àa]|<(?!=)"
_AT_LEAST = re.compile(
    rf"(?i)(?:{_STRICT_LOW}|at least|minimum of|au moins|>=)\s*{AMOUNT}"
    rf"|{AMOUNT}\s*(?:[^\W\d_]+\s+){{0,2}}(?:or more|or above|ou plus|et plus)\b"  # "80 people or more"
    rf"|{AMOUNT}\s*\+(?!\s*\d)"  # "500+ clubs"
)
_AT_MOST = re.compile(rf"(?i)(?:{_STRICT_HIGH}|at most|maximum of|up to|au plus|jusqu'[àa]|<=)\s*{AMOUNT}")


def amount_words(value: float) -> str:
    for word, size in (("billion", 1e9), ("million", 1e6)):
        if value >= size:
            return f"{value / size:g} {word}"
    return f"{value:,.0f}"


def _numeric_rule(text: str) -> NumericRule | None:
    folded = text.casefold()
    if re.search(EMPLOYEE_WORDS, folded):
        metric = "employees"
    elif re.search(rf"\b{REVENUE_WORDS}\b", folded):
        # ARR when the criterion asks for it, else revenue (where "ARR ... don't count" is said, it asks for revenue)
        metric = "arr" if ARR_WORDS.search(text) else "revenue"
    else:
        return None
    bounds = _bounds(text)
    if bounds is None:
        return None
    currency = currency_in(text) if metric != "employees" else None
    return NumericRule(metric, bounds.low, bounds.high, currency=currency, above=bounds.above, below=bounds.below)


class _Bounds(NamedTuple):
    low: float | None
    high: float | None
    words: re.Match[str]  # the words that set the first bound
    above: bool  # the low bound excludes its own figure ("more than 150")
    below: bool  # the high bound excludes its own figure ("fewer than 200")


def _bounds(text: str) -> _Bounds | None:
    """The lower and upper bounds a criterion sets, and the words that set them: "between 50 and 200", "$5-50
    million" (both in millions), or a bound each way said apart ("80 people or more, ..., under 400 people": each
    bound's own words say whether it keeps its figure)."""
    if between := _BETWEEN.search(text):
        groups = list(between.groups())
        low_digits, low_scale, high_digits, high_scale = groups[0:4] if groups[0] else groups[4:8]
        high_scale = high_scale or None
        low_scale = low_scale or high_scale
        return _Bounds(
            amount_value(low_digits, low_scale), amount_value(high_digits, high_scale), between, False, False
        )
    low, high = _AT_LEAST.search(text), _AT_MOST.search(text)
    if bound := low or high:
        above = low is not None and re.match(f"(?i)(?:{_STRICT_LOW})", low.group(0)) is not None
        below = high is not None and re.match(f"(?i)(?:{_STRICT_HIGH})", high.group(0)) is not None
        return _Bounds(_bound(low), _bound(high), bound, above, below)
    return None


def _bound(match: re.Match[str] | None) -> float | None:
    if match is None:
        return None
    groups = match.groups()
    first = next(i for i in range(0, len(groups), 2) if groups[i])  # the alternative that matched
    return amount_value(groups[first], groups[first + 1])


# A count criterion names what it counts after its bound: "Plus de 1 000 communes clientes", "Signed 500+ clubs",
# "More than 200 customers". Not a span of time, a share or money ("more than 10 years", "over 50%", "over $5M").
_NOT_COUNTED = frozenset(
    """year years month months week weeks day days hour hours an ans annee annees mois jour jours semaine semaines
    percent per cent pourcent of de du des d in en the les la le by par and et or ou with avec for pour at a au aux
    signed sign has have are is sont ont today aujourd hui selon""".split()
)
_COUNT_NOUN = re.compile(r"\s*\+?\s*([^\W\d_][\w-]{2,}(?:\s+[^\W\d_][\w-]{2,}){0,2})")


def _count_rule(text: str) -> NumericRule | None:
    """A criterion that bounds a count of things (the noun after its bound), read as a numeric rule on it."""
    bounds = _bounds(text)
    if bounds is None:
        return None
    bound = bounds.words
    if re.search(rf"[{CURRENCY_SIGNS}%]|\b{CURRENCY_CODES}\b", bound.group(0)):
        return None
    noun = _COUNT_NOUN.match(text, bound.end())
    words = fold(noun.group(1)).split() if noun else []
    # what it counts: up to three words, to the first function word ("individual club sites", "communes clientes")
    counted = " ".join(itertools.takewhile(lambda word: word not in _NOT_COUNTED, words))
    rule = NumericRule(counted, bounds.low, bounds.high, above=bounds.above, below=bounds.below)
    return rule if counted else None


_HQ_WORDS = r"headquartered|headquarters|head office|registered office|based|located|hq|siege|base|basee"


# What a criterion says does not count ("an Australian subsidiary or a UK sales office doesn't count", "(pas un
# simple bureau de ventes ni une filiale)"): a clause or an aside that denies.
_DENIES = (
    r"(?:(?:does not|doesn't|do not|don't|does'nt|won't|will not) (?:count|make|change (?:that|it)|decide|move it)"
    r"|not counted|ne comptent? pas|ne sont pas compt[ée]e?s|ne suffi(?:t|sent) pas|n['\u2019]y changen?t? rien"
    # "ARR, berth fees ... are not its revenue", "ne sont pas son chiffre d'affaires"
    r"|(?:is|are) not (?:its|their|the company's)|(?:isn't|aren't) (?:its|their)"
    r"|ne (?:sont|est) pas (?:son|sa|ses|leur)"
    r"|n['\u2019]en fait pas)"
)
_IN_SENTENCE = r"(?:[^.;]|\.(?!\s|$))"  # a sentence's characters ("S.C.", "12.5" inside it)
_DENIED_PART = re.compile(
    r"(?i)\([^()]*\b(?:not|pas|ni|sauf|except|excluding|hors)\b[^()]*\)"
    # a sentence or a clause after a semicolon that lists what does not count ("... today. LinkedIn headcounts, planned
    # hires, ... don't count"; "...; Ne comptent pas : l'ARR, les montants levés")
    rf"|(?<=[.;])\s+{_IN_SENTENCE}*?\b{_DENIES}\b{_IN_SENTENCE}*"
    rf"|[;:,]\s*[^;:,]*\b{_DENIES}\b[^;]*"
)


def _region_rule(text: str) -> RegionRule | None:
    """A region ("in the EU", "DACH") or the countries the headquarters must be in; a region and countries together
    ("Head office in Italy or Iberia") are one rule (``rule_for`` has cut the places it says do not count)."""
    folded = fold(text)
    if not re.search(rf"\b({_HQ_WORDS}|in|situe|en|au)\b", folded):
        return None
    states = states_named(text)  # "Paraná (PR), Santa Catarina (SC) or Rio Grande do Sul (RS)": any of them
    # a region's name of several words is no place of its own words: "Metro Manila" is not Indonesia's Metro
    several = [state[0] for state in states if " " in state[0]]
    countries = place_countries(functools.reduce(lambda left, name: left.replace(name, " "), several, text))
    if region := region_named(text):
        label, within = region
        extra = sorted(c.title() for c in countries - within)
        return RegionRule(" or ".join([*extra, label]), frozenset(within | countries))
    if not re.search(rf"\b({_HQ_WORDS})\b", folded):
        return None
    # "Siège social situé en région Auvergne-Rhône-Alpes", "HQ in Queensland", "dans le canton de Genève" (a canton
    # named after its city: the canton, where the criterion says so)
    if states and (not countries or names_a_state(text) or len(states) > 1):
        written = list(dict.fromkeys(state[0] for state in states))
        within = frozenset().union(*(state[2] for state in states))
        named = list(dict.fromkeys(state[1] for state in states))
        # and the regions of the cities it names beside them ("in Bucharest or in Ilfov county": Bucharest's too)
        rest = functools.reduce(lambda left, state: left.replace(state[0], " "), states, text)
        cities = [state for country in countries & within if (state := state_of(rest, country)) and state not in named]
        return RegionRule(" or ".join([*written, *(c.title() for c in cities)]), within, state="|".join(named + cities))
    if countries:
        return RegionRule(" or ".join(sorted(c.title() for c in countries)), frozenset(countries))
    return None


EVENT_WORDS: dict[str, tuple[str, ...]] = {
    "funding": ("raised", "raises", "raise", "funding", "series", "seed round", "round", "investment", "investors"),
    "executive": ("appointed", "appoints", "named", "joins as", "joined as", "hired", "new ceo", "new cto"),
    "hiring": ("hiring", "is hiring", "recruiting", "open roles", "open positions", "job openings", "hires"),
    "launch": ("launched", "launches", "released", "releases", "unveiled", "introduced", "announced"),
    "layoffs": ("laid off", "layoffs", "job cuts", "cut jobs", "redundancies"),
    "acquisition": ("acquired", "acquisition of", "bought", "takeover", "merger"),
}
EVENT_CUES = {
    "layoffs": re.compile(
        r"(?i)\b(laid off|lay(?:s|ing)? off|layoffs?|job cuts|cut \d+ jobs|cuts? \d+ (?:jobs|roles|positions)"
        r"|redundanc\w+|licenciements?|suppressions? de postes|plan de d[ée]parts?)"
    ),
    # buying another company: "has acquired ClaimHarbor", "the ClaimHarbor acquisition closed", "a racheté";
    # not being bought ("acquired by"), nor customers won ("acquired 40 customers", "customer acquisition")
    "acquisition": re.compile(
        r"(?i)\b(acquired(?!\s+(?:by|\d|new|more|customers|clients|users))|acquires|buys|bought(?!\s+by)"
        r"|(?<!customer )(?<!user )(?<!client )acquisitions?(?!\s+(?:cost|channel|funnel|de clients|de nouveaux))"
        r"|takeover of|merg(?:ed|es) with|rachet[ée]e?s?|rach[eè]te|rachat (?:de|du|d['\u2019])|a acquis|acquiert)\b"
    ),
    "funding": re.compile(
        r"(?i)\b(raised|raise|raises|funding|fund-?raising|funded|investment|series [a-e]|round|lev[ée]e? (?:de|des)"
        r" fonds|lev[ée]e|l[èe]ve|a lev[ée]|tour de table|s[ée]rie [a-e]|financement|ronde|capital increase|share issue"
        r"|augmentation de capital|aumento de capital|kapitalerh[öo]hung)\b"
    ),
    "executive": re.compile(
        r"(?i)\b(new (ceo|cto|cfo|coo|cro|executive|vp|chief)|executive hire|appointed|appoints"
        r"|t(?:ake|akes|aking|ook) (?:over )?the (?:position|role|post|job) (?:of|as) (?:[\w-]+ ){0,2}?"
        r"(?:chief|ceo|cto|cfo|coo|cro|cmo|president|managing director)"
        r"|(?:joins?|joined|hired|hires|named|promoted|start(?:s|ed)|t(?:akes|ook|aking) over|step(?:s|ped) in)\b"
        r"[^.;]{0,40}\bas\s+(?:its\s+|our\s+|their\s+|the\s+|new\s+|interim\s+)*"
        r"(?:chief|ceo|cto|cfo|coo|cro|cmo|vp|vice president|head of|president|managing director|general manager)"
        r"|new (?:c-suite|c-level)|chang\w* (?:its|their|the|a) (?:ceo|cto|cfo|coo|cro|cmo|chief)"
        r"|leadership change|nomm[ée]e?|nomme|nouv(?:eau|el|elle) (?:dirigeante?|directeur|directrice|pr[ée]sidente?"
        r"|membre de la (?:haute )?direction|direction|DG|DAF)|entr[ée]e? en fonction"
        r"|(?:chief|executive) [^.;]{0,40}\bofficer (?:started|joined|took)"
        r"|rejoint .{0,40}(?:directeur|directrice|pr[ée]sident)|arriv[ée]e .{0,60}\b(?:au poste de|en tant que)\s"
        r"|au poste de (?:directeur|directrice|pr[ée]sident|DAF|DG)|succ[eè]de [àa]"
        r"|(?:prend|pris|prendra) la (?:direction|pr[ée]sidence)"
        r"|t(?:akes|ook|aking) over from"
        # "announced that Julián Ferreyra will become its CEO on 1 September 2026"
        r"|(?:becomes?|became|become) (?:its |the |our |their )?(?:new |interim )?(?:chief|ceo|cto|cfo|coo|cro|cmo"
        r"|president|managing director|general manager)"
        # who leads it, since when: "Depuis le 1er mars 2026, Parvis est dirigée par Antoine Guérin"
        r"|(?:depuis|since)\b[^.;]{0,40}\b(?:dirig[ée]e?s? par|(?:led|run|headed) by)"
        r"|(?:dirig[ée]e?s? par|(?:is|has been) (?:led|run|headed) by)\b[^.;]{0,60}\b(?:depuis|since)\b)"
    ),
    "hiring": re.compile(r"(?i)\b(hiring|hires|recruiting|open roles|headcount growth|recrute|recrutement)\b"),
    "launch": re.compile(r"(?i)\b(launch(ed|es)?|released?|new product|lance|lancement|lanc[ée]e?)\b"),
}
_WINDOW = re.compile(
    r"(?i)\b(?:(?:in|within|during|over) the (?:(?:last|past) )?(\d+)\s*(day|week|month|year)s?"
    r"|(?:au cours des|dans les|lors des|sur les|durant les|pendant les|ces) (\d+) derni[eè]r(?:s|es)"
    r" (jour|semaine|mois|an|ann[ée]e)s?)\b"
)
_WINDOW_ONE = re.compile(
    r"(?i)\b(?:in|within|during|over) the (?:last|past) (day|week|month|year)\b|\blast year\b"
    r"|\bla derni[eè]re ann[ée]e\b|\bmoins d['\u2019]un an\b|\bdepuis un an\b"
)
_UNIT_DAYS = {"day": 1.0, "week": 7.0, "month": 365 / 12, "year": 365.0}
_UNIT_DAYS |= {"jour": 1.0, "semaine": 7.0, "mois": 365 / 12, "an": 365.0, "année": 365.0, "annee": 365.0}
# "No layoffs in the last 12 months", "Has not cut jobs ...": the event's absence is what matches
_ABSENCE = re.compile(r"(?i)^\s*(?:no|has not|hasn't|did not|didn't|without|aucun|aucune|pas de|n'a pas)\b")


# The window's first day, named: "since 1 December 2025", "(depuis décembre 2025)".
_SINCE = re.compile(r"(?i)\b(?:since|from|between|depuis|à partir de|entre)\s+(?:le\s+|the\s+)?(.{3,30})")


# A calendar year as the window: "during calendar 2026", "in calendar year 2026", "en 2026".
_IN_YEAR = re.compile(
    r"(?i)\b(?:in|during|throughout|en|courant|au cours de|pendant|durant)\s+"
    r"(?:calendar\s+(?:year\s+)?|the year\s+|l['\u2019]\s?ann[ée]e\s+(?:civile\s+)?)?((?:19|20)\d\d)\b"
)


# "between 1 January and 30 November 2026": the first day is in the last one's year
_BETWEEN_DAYS = re.compile(
    r"(?i)\b(?:between|entre)\s+(?:le\s+|the\s+)?(.{3,20}?)\s+(?:and|et)\s+(?:le\s+|the\s+)?(.{3,30})"
)


def _window(text: str) -> tuple[datetime.date, datetime.date | None] | None:
    """The window's first day and, where the criterion closes it, its last ("between March and June 2026": March 1
    to June 30; "au second semestre 2025": July 1 to December 31; "since 1 December 2025": no last day)."""
    for match in _BETWEEN_DAYS.finditer(text):
        last = date_span(match.group(2))
        first = match.group(1)
        if last and (span := date_span(first, last[0].year) or date_span(f"{first} {last[0].year}")):
            return span[0], last[1]  # "between March and June 2026": March 2026
    for match in _SINCE.finditer(text):
        if span := date_span(match.group(1)):
            # "depuis le 1er juin 2026" opens it; "au second semestre 2025", "in Q3 2026" close it too
            return span[0], None if _OPENS_ONLY.search(match.group(0)) or span[0] == span[1] else span[1]
    year = _IN_YEAR.search(text)
    return (datetime.date(int(year.group(1)), 1, 1), datetime.date(int(year.group(1)), 12, 31)) if year else None


_OPENS_ONLY = re.compile(r"(?i)\b(?:since|from|after|depuis|apr[eè]s|[àa] partir|seit|desde|dal|dopo|sinds)\b")


def _event_rule(text: str) -> EventRule | None:
    text = in_digits(text)  # "in the twelve months before 30th November 2026"
    event = next((name for name, cue in EVENT_CUES.items() if cue.search(text)), None)
    if event is None:
        return None
    absent = bool(_ABSENCE.match(text))
    if window := _window(text):
        return EventRule(event, DEFAULT_WINDOW_DAYS, absent, *window)
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
    r"|h[ée]berge (?:\w+ ){0,3}(?:sur|chez)|utilise|tourne (?:sur|chez)|repose sur|s['\u2019]appuie sur"
    r"|bas[ée]e?s? sur)\s+(.+)"
)
_TECH_END = re.compile(
    r"(?i)[.;,()]| in production| for | as | comme | internally| in-house| in house| en interne| today\b| now\b"
    r"| currently\b| at present\b| aujourd['\u2019]hui\b| actuellement\b"
)


# "Runs its platform without AWS, Microsoft Azure or Google Cloud", "Hébergé hors des clouds AWS et Azure".
_WITHOUT = re.compile(
    r"(?i)\b(?:run(?:s|ning)?|host(?:s|ed|ing)?|h[ée]berg\w*|tourne)\b[^.;(]{0,30}?\b(?:without|not on|off|sans"
    r"|hors d(?:e|es|u))\s+(?:les? clouds?\s+)?([^.;(]+)"
)


# A criterion named for the tool's users: "Salesforce shop", "HubSpot user".
_TOOL_USER = re.compile(r"^\s*([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)?)\s+(?:shop|user|house|customer)s?\s*$")


def _tech_rule(text: str) -> TechRule | None:
    if user := _TOOL_USER.match(text):
        return TechRule(user.group(1))
    if without := _WITHOUT.search(text):
        tools = [t.strip() for t in re.split(r",\s*|\s+(?:or|and|nor|ou|et|ni)\s+", without.group(1)) if t.strip()]
        if tools and all(1 < len(tool) <= 40 for tool in tools):
            return TechRule(tools[0], absent=True, others=tuple(tools[1:]))
    match = _TECH.search(text)
    if match is None:
        return None
    term = _TECH_END.split(match.group(1))[0].strip()
    term = re.sub(r"(?i)^(?:(?:the|a|an|le|la|les|itself)\s+|l['\u2019]\s*|(?:elle|lui|eux)-m[êe]mes?\s+)", "", term)
    # a phrase around a name: the name ("une offre qualifiée SecNumCloud par l'ANSSI": SecNumCloud)
    named = [word for word in term.split()[1:] if word[:1].isupper()] if len(term.split()) > _TECH_WORDS else []
    term = named[0] if named else term
    return TechRule(term) if 1 < len(term) <= 60 else None


_TECH_WORDS = 3  # a longer technology term is a phrase


# Customers or an office of its own, beside a channel, make a criterion one of presence: "Has customers, a reseller
# or distributor, or its own sales office in Australia" (not "Resellers or sales partners sell its LIMS to labs in
# Germany": a channel there)
_OR_PRESENT = re.compile(r"(?i)\b(?:customers?|clients?|offices?|bureaux?|agences?|subsidiar(?:y|ies)|branch(?:es)?)\b")


def rule_for(criterion: Criterion) -> Rule | None:
    """The kind of criterion the offline judge can decide, read from its description (and name)."""
    for written in (criterion.description, criterion.name):
        text = _DENIED_PART.sub("", written)  # "a sales office, a reseller ... there doesn't make it Iberian"
        readers = (
            _numeric_rule,
            founded_rule,
            _event_rule,
            buyer_rule,
            channel_rule,
            hosting_rule,
            presence_rule,
            _region_rule,
        )
        for reader in (*readers, _count_rule, _tech_rule):
            rule = reader(text)
            if isinstance(rule, ChannelRule) and _OR_PRESENT.search(text) and (present := presence_rule(text)):
                # a channel as one way among others to be somewhere ("Has customers, a reseller or distributor, or
                # its own sales office in Australia"): where it is present is asked
                return present
            if rule is not None:
                return rule
    return with_named(statement_rule(criterion.description or criterion.name), criterion.name)


def with_named(statement: StatementRule | None, name: str) -> StatementRule | None:
    """A statement rule with the codes, acronyms and names the criterion's ``name`` gives as key words too: they are
    what it asks ("TISAX AL3 label in hand": not an AL2 label; "RFID keg tracking live": not QR labels; "Mobile keys
    in Samsung Wallet": not keys in its own app)."""
    if statement is None or statement.profit:
        return statement
    said = {word for key in statement.keys for word in key.split("|")}
    acronyms = [w for w in _ACRONYM.findall(_ASIDE.sub(" ", name)) if not (place_countries(w) or region_named(w))]
    named = [*CODE.findall(name), *acronyms]
    codes = [fold(code) for code in named if fold(code) not in said]
    codes += [key for key in _proper_names(name) if not said & set(key.split("|"))]
    return StatementRule((*statement.keys, *dict.fromkeys(codes))) if codes else statement


def _proper_names(name: str) -> list[str]:
    """The names a criterion's name asks for, as keys: its capitalised words after the first ("Mobile keys in Samsung
    Wallet or Apple Wallet": "samsung|apple", "wallet"), names joined by "or" as alternatives, word by word."""
    words = _ASIDE.sub(" ", name).split()[1:]
    groups: list[list[str]] = [[]]
    for word in words:
        if word.casefold() in ("or", "ou"):
            groups.append([])
        elif word[:1].isupper() and not word.isupper():
            groups[-1].append(fold(word))
    groups = [group for group in groups if group]
    if not groups:
        return []
    return [
        "|".join(dict.fromkeys(group[i] for group in groups if i < len(group))) for i in range(max(map(len, groups)))
    ]


_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")
_ASIDE = re.compile(r"\([^)]*\)")  # "ISMS (ISO/IEC 27001) certified": an aside names no key


def rule_label(criterion: Criterion) -> str:
    """How the offline judge reads the criterion, for the page that defines it."""
    rule = rule_for(criterion)
    return rule.describe() if rule is not None else "not decided offline (a language-model writer can)"


# The words a French corpus states each kind of criterion with: a French corpus's rollout searches them too
# (``Facet.french``), as a report's facets do ("Notre siège se trouve à Neuchâtel" holds no "headquartered").
_FRENCH_WORDS: dict[str, str] = {
    "employees": "salariés, collaborateurs, effectif, équipe, personnes",
    "revenue": "chiffre d'affaires, revenus, CA",
    "region": "siège, siège social, basé, situé",
    "tech": "hébergé, hébergement, utilise, infrastructure, stack",
    "funding": "levée de fonds, lève, millions, série, investisseurs",
    "executive": "nommé, nouveau directeur, nouvelle directrice, rejoint, direction",
    "hiring": "recrute, recrutement, postes ouverts",
    "launch": "lance, lancement, nouveau produit",
    "layoffs": "licenciements, suppressions de postes, plan de départs",
    "acquisition": "rachat, racheté, rachète, acquisition, acquiert",
    "channel": "revendeurs, distributeurs, partenaires, réseau",
    "presence": "bureau, filiale, agence, clients, présence",
    "buyer": "payé par, facturé, paient, abonnement, gratuit, B2B",
    "founded": "fondée, créée, création, fondateurs, depuis",
}


def search_french(criterion: Criterion) -> str:
    """The French words a French corpus's rollout for the criterion searches besides its question ("" for a
    statement: its own words are the criterion's)."""
    rule = rule_for(criterion)
    kinds: dict[type, str] = {RegionRule: "region", TechRule: "tech", ChannelRule: "channel", PresenceRule: "presence"}
    kinds |= {BuyerRule: "buyer", HostingRule: "tech", FoundedRule: "founded"}
    if isinstance(rule, NumericRule):
        return _FRENCH_WORDS.get(
            "revenue" if rule.metric == "arr" else rule.metric, "clients"
        )  # a count of things: its own words are in the question
    if isinstance(rule, EventRule):
        return _FRENCH_WORDS[rule.event]
    return _FRENCH_WORDS.get(kinds.get(type(rule), ""), "")


def search_question(criterion: Criterion, company: str) -> str:
    """What the agent searches for the criterion: the question the judge needs answered (a statement: the
    criterion's own words)."""
    rule = rule_for(criterion)
    if rule is None or isinstance(rule, StatementRule):
        return f"{criterion.description} ({company})"
    return rule.question(company)
