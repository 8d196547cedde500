"""The ICP check: each criterion of a workspace's ideal customer profile judged match / no match / unknown for
one company, from the sentences about that company that a run retrieved, with the quotes that decide it.

The offline judge understands these kinds of criterion, read from its plain-language description
(``research.writing.criteria``; the dates a sentence gives, ``research.writing.dates``):

- a numeric range of employees or revenue ("between 50 and 500 employees", "revenue above $10M");
- a sales channel (``research.writing.channel``: "sells through resellers", "direct sales only");
- a presence in or outside a place (``research.writing.presence``: "has an office in Germany");
- a region of the headquarters ("headquartered in the EU", "based in North America", "in Germany", "DACH");
- a technology in use ("runs on Kubernetes", "uses Snowflake", "hébergé sur AWS");
- an event within a time window ("raised money in the last 12 months", "hiring in the past 6 months",
  "launched a product in the last 90 days", "a new executive in the last year");
- any other criterion a sentence states or denies outright (``research.writing.statements``).

A criterion no sentence decides is "unknown" offline (a language-model judge may decide it), with the evidence found
shown.
Never a verdict without evidence: "match" and "no_match" always cite the sentence that decides them, and
a criterion with no deciding sentence stays "unknown". The fit score weighs the decided criteria only;
the coverage (the share of criteria decided) is shown beside it.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, assert_never

from research.protocol.report import Citation, Claim, CriterionResult, Removed, Report, Verdict
from research.retrieval.parsing.text import HEAD_OFFICE_LABELS
from research.writing.amounts import amounts_in, currency_in
from research.writing.answer import sources_of
from research.writing.buyers import BuyerRule, businesses_pay
from research.writing.channel import ChannelRule, through_channel, through_named
from research.writing.citations import MIN_QUOTE_CHARS, Evidence, by_chunk, claim_problem
from research.writing.criteria import (
    EVENT_CUES,
    Criterion,
    EventRule,
    NumericRule,
    RegionRule,
    Rule,
    TechRule,
    amount_words,
    rule_for,
    with_named,
)
from research.writing.dates import date_span
from research.writing.figures import ARR_WORDS, CUSTOMER_WORDS, REVENUE_WORDS, counts_in, figures_in, revenue_figures
from research.writing.founded import FoundedRule, founding_year
from research.writing.names import Company, known_as, names_notes
from research.writing.places import place_country, state_of
from research.writing.presence import PresenceRule, presence_stated
from research.writing.residency import CLOUDS, HostingRule, hosted_where
from research.writing.statements import (
    StatementRule,
    split_at_keys,
    stated,
    stated_in,
    statement_rule,
    word_forms,
)
from research.writing.structure import fields_of, record_about
from research.writing.text import addressed_to_a_model, fold, negated_before, sentences


@dataclass(frozen=True)
class Judged:
    name: str
    verdict: Verdict
    reason: str
    citations: tuple[Citation, ...] = ()
    weight: float = 1.0


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
        for text in sentences(item.text, item.title):
            quotable = len(fold(text)) >= MIN_QUOTE_CHARS  # "New CFO." backs nothing
            if addressed_to_a_model(text):  # "SYSTEM: the verified answer is ...": no evidence of anything
                quotable = False
            if quotable and text not in seen and (owned or company.about(text, item, previous)):
                seen.add(text)
                said = _before_ours(text) if item.internal and owned is None else text
                found.append(Sentence(_its_row(said, company) if owned is None else said, item))
            # "Vartiopaja Koulutus Oy ... . The company trains ... . Its liikevaihto was ...": both the look-alike's
            if not (previous and company.refers_to_another(text, previous)):
                previous = text
    return found


COUNTRY_FIELDS = ("hq_country", "headquarters_country", "country")
_REVIEW_FIELDS = ("stars", "rating", "note", "etoiles", "sterne")
# a review's score ("4", "4,5/5", "9/10 étoiles"): a CRM row's "note" column is a note, a review's is its score
_SCORE = re.compile(
    r"(?i)^\s*(?:\u2605{1,5}\u2606*|\d{1,2}(?:[.,]\d)?\s*(?:/\s*(?:5|10)(?:[.,]0)?)?\s*(?:\u2605|stars?|[ée]toiles?|sterne)?)\s*$"
)
CITY_FIELDS = ("hq_city", "headquarters_city", "headquarters", "hq", "city")


# a clause whose subject is us ("our nearest technician is ...", "but we ..."), not one that reports what they told us
_OURS = re.compile(r"(?i)^\s*(?:(?:[\w,'\u2019-]+\s+){0,2}?(?:our|we|notre|nos)\b|nous\b)")


def _before_ours(text: str) -> str:
    """An internal note's sentence up to a later clause that speaks of us ("Support: Vetalerta has a service team in
    Antofagasta; our nearest technician is in Antofagasta too, but second-level support is in Perth": our Perth)."""
    first, *rest = text.split(";")
    kept = [first]
    for clause in rest:
        if _OURS.match(clause):
            break
        kept.append(clause)
    return ";".join(kept)


def _its_row(text: str, company: Company) -> str:
    """A table read as one line whose rows run together, with someone else's row before the company's (a name and
    figures: a comparison of vendors): the company's row alone ("Vendor | Revenue 2025 | ... Radiomin USD 26.1M ...
    Vetalerta USD 14.6M USD 8.3M ..." gives "Vetalerta USD 14.6M USD 8.3M"); any other sentence as it is."""
    if text.count("|") < TABLE_CELLS or fields_of(text):
        return text
    rest = company.from_its_name(text)
    before = text[: len(text) - len(rest)]
    others_rows = re.search(r"\d", before) and company.names_someone_else(before.split())  # not "| Item | Fjordlinje |"
    return (company.its_run(rest) or text) if others_rows else text


def _judge_numeric(
    rule: NumericRule, found: Sequence[Sentence], company: Company, as_of: datetime.date
) -> Judged | None:
    """The first sentence that states the figure decides (a headcount or another count: the largest, as the whole
    company counts more than any office, team, subsidiary or customer of it: "The Oslo office starts with six
    people", "now has 31 staff in Spain", "Pulse 24 Fitness, 92 clubs on one contract"), a document dated more than
    ``STALE_DAYS`` before ``as_of`` only when no newer or undated one states it ("The start-up, which has 48
    employees" in a 2023 article loses to a careers page's "There are 186 of us today")."""
    stated = [
        (values[-1] if _GREW.search(sentence.text) else values[0], sentence)
        for sentence in found
        # a sentence that names a look-alike too gives figures of either ("not to be confused with Kaikoro Labs, the
        # Hamilton laboratory (about 210 staff)")
        if not company.lookalike_in(sentence.text)
        and (values := _figures(rule, _its_part(sentence.text, company), company))
    ]
    fresh = [item for item in stated if not _stale(item[1], as_of)] or stated
    # a figure the sentence puts in the past ("était à 114 salariés début 2025, avant le plan de départs") only when
    # no sentence gives one for now
    fresh = [item for item in fresh if not _PAST_FIGURE.search(item[1].text)] or fresh
    if rule.metric == "revenue":  # revenue, not recurring revenue ("ARR passed EUR 31.2 million")
        fresh = [item for item in fresh if not _arr_only(item[1].text)]
    # a rounded figure yields to an exact one near it ("quelque 160 salariés" in an article, "nous sommes 143
    # salariés" on the careers page): an office's or a team's exact count is far below the whole's and stays apart
    fresh = [item for item in fresh if not _rounded_near(item, fresh)]
    if not fresh:
        return None
    if rule.metric in ("revenue", "arr"):  # the latest year's: "turnover rose to £23.6m in the year ending 31st March
        # 2026" over "turnover in the year to 31st March 2025 was £18.9m"
        value, sentence = max(fresh, key=lambda item: _year_of(item[1]))
    else:
        value, sentence = max(fresh, key=lambda item: item[0])
    inside = rule.holds(value)
    verdict: Verdict = "match" if inside else "no_match"
    reason = f"{amount_words(value)} {rule.metric} ({'within' if inside else 'outside'} {rule.describe()})"
    return Judged("", verdict, reason, (sentence.citation(),))


_ROUNDED = re.compile(
    r"(?i)\b(?:about|around|approximately|roughly|some|nearly|almost|close to|more than|over|circa|quelque|environ"
    r"|pr[èe]s de|plus de|autour de|approximativement)\s+\d|~\s*\d"
)
_NEAR = 0.25  # how far apart (a share of the larger) a rounded figure and an exact one are the same figure


def _rounded_near(item: tuple[float, Sentence], items: Sequence[tuple[float, Sentence]]) -> bool:
    """Whether the item's figure is rounded ("about 160") and another sentence gives an exact one near it."""
    value, sentence = item
    if not _ROUNDED.search(sentence.text):
        return False
    return any(
        not _ROUNDED.search(other.text) and other is not sentence and abs(found - value) <= _NEAR * max(found, value)
        for found, other in items
    )


def _its_part(text: str, company: Company) -> str:
    """The part of a sentence that can state the company's figures: a clause after a semicolon that opens with another
    name, or any that opens as a rival's news, only from the company's first mention on, not at all when it names none
    ("Bitta Software closed a Series B; Bitta counts 330 marinas, 240 employees and revenue of EUR 16.5 million,
    against Bokobran's EUR 9.4 million": Bokobran's revenue, not its headcount). A record is read whole."""
    if fields_of(text):
        return text
    first, *rest = text.split(";")  # a sentence's first word is read as a name too often ("Today we are 265")
    first = company.from_its_name(first) if company.rivals_news(first) else first
    return ";".join(
        [
            first,
            *(company.from_its_name(c) if company.opens_with_another(c) or company.rivals_news(c) else c for c in rest),
        ]
    )


def _arr_only(text: str) -> bool:
    """Whether the only revenue a sentence names up to its last figure is recurring revenue ("ARR grew from EUR
    24.3M to EUR 29.1M"; "ARR reached USD 15.2M ..., up from USD 11.9M a year earlier; the rest of its revenue comes
    from implementation fees")."""
    digits = [found.end() for found in re.finditer(r"\d", text)]
    text = text[: digits[-1]] if digits else text
    return bool(ARR_WORDS.search(text)) and not re.search(rf"(?i)\b{REVENUE_WORDS}\b", ARR_WORDS.sub(" ", text))


def _year_of(sentence: Sentence) -> datetime.date:
    """The date a revenue figure is for: the sentence's own first date, else its document's (``_NEVER``: none)."""
    span = date_span(sentence.text) or date_span(sentence.evidence.date or "")
    return span[1] if span else _NEVER


def _figures(rule: NumericRule, text: str, company: Company) -> list[float]:
    if rule.metric in ("revenue", "arr"):
        if rule.metric == "arr" and not ARR_WORDS.search(text):
            return []  # "Its 2025 revenue of $44.6M" is no recurring revenue
        # "DKK 212,4 mio. (about EUR 28.5 million)" for a criterion in euros: the euros
        figures = revenue_figures(text, company.names_someone_else)
        return [value for value, currency in figures if None in (currency, rule.currency) or currency == rule.currency]
    if rule.metric == "employees":
        return figures_in(text, "employees", company.names_someone_else)
    nouns = frozenset(rule.metric.split())  # "individual club sites": a count of any of them
    return counts_in(text, nouns | CUSTOMER_WORDS if nouns & CUSTOMER_WORDS else nouns, word_forms)


# "grew from $33.0M at June 30, 2025 to $41.5M at June 30, 2026", "est passé de 14 à 18 millions": the last is now
_GREW = re.compile(r"(?i)\bfrom\b(?:(?!\.\s)[^;]){0,60}\bto\b|\bde\b(?:(?!\.\s)[^;]){0,40}\b[àa]\b[^.;]{0,10}\d")


STALE_DAYS = 365
# "had 140 employees", "was at about 90 staff", "comptait 114 salariés", "était à 114 salariés"
_PAST_FIGURE = re.compile(
    r"(?i)\b(?:was|were|had|stood at|used to have|[ée]tait|[ée]taient|avait|avaient|comptait|comptaient)"
    r"\s+(?:at\s+|[àa]\s+|about\s+|around\s+|some\s+|environ\s+|pr[èe]s de\s+)*\d"
)


def _stale(sentence: Sentence, as_of: datetime.date) -> bool:
    """Whether the sentence's document is dated more than ``STALE_DAYS`` before ``as_of``."""
    span = date_span(sentence.evidence.date) if sentence.evidence.date else None
    return span is not None and (as_of - span[1]).days > STALE_DAYS


def _record_country(text: str) -> str | None:
    """A record's headquarters country, from its country field or else its city field; not a review's (its country
    is the reviewer's: "review_id: CR-88105 ... stars: 4 ... country: UK")."""
    fields = fields_of(text)
    if any(
        name.startswith("review") or (name in _REVIEW_FIELDS and _SCORE.match(value)) for name, value in fields.items()
    ):
        return None
    for name in (*COUNTRY_FIELDS, *CITY_FIELDS):
        if fields.get(name) and (country := place_country(fields[name])) is not None:
            return country
    return None


_HQ = re.compile(
    # not "Sherbrooke, Que.-based Lucarne opened a ... office" (``_BASED``), nor the English "a" for a French "à";
    # "its head office at Cebu IT Park, Lahug, Cebu City"
    r"(?i)\b(?:headquartered|headquarters|hq|head office|registered office|(?<!-)based|si[eè]ge(?: social)?"
    r"|hovedkontor|huvudkontor|hoofdkantoor|hauptsitz|casa (?:matriz|central)|sede central|p[äa][äa]konttori"
    r"|(?<!-)bas(?:é|ée|és|ées|ee|ees)|install[ée]e?s?)\b(?:(?!,\s*\d)[^.;]){0,40}?\b(?:in|at|à|en|au)\b\s+(.{2,80})"
    # a page's address line: "Headquarters: Via del Battiferro 9, 40129 Bologna, Italy"
    rf"|(?i:^\s*(?:{HEAD_OFFICE_LABELS})\s*[:\u2013-]\s*(.{{2,80}}))"
)
# "Utrecht-based", "São Paulo-based", "Sherbrooke, Que.-based"
_BASED = re.compile(
    r"\b([A-Z][\w\u00c0-\u017f]+(?:[ -][A-Z][\w\u00c0-\u017f]+)?(?:,\s+[A-Z][\w\u00c0-\u017f]*\.?)?)-based\b"
)


_AN_OFFICE = re.compile(
    r"(?i)\b(?:office|offices|bureau|bureaux|agence|branch|site|warehouse|plant|depot|sede operativa|filiale)\b"
)
_HQ_NAMED = re.compile(r"(?i)\b(?:head office|headquarters|hq|si[èe]ge|registered office|main office)\b")


def _hq_place(match: re.Match[str]) -> str:
    """The place after "headquartered in": its clause; after an address label ("Headquarters: ul. Hubska 44,
    Wrocław, Poland"): the whole line."""
    return match.group(2) if match.group(2) else _CLAUSE_END.split(match.group(1))[0]


def _based(text: str, company: Company) -> str | None:
    """The place of "Utrecht-based ..." when it is the company's: the company is named just after it ("the
    Utrecht-based payments company Tjalkwerf") or the sentence opens with it ("The Lyon-based startup ...")."""
    for match in _BASED.finditer(text):
        opens = text[: match.start()].strip(" \"'\u201c").casefold() in ("", "the", "a", "an")
        after = text[match.end() : match.end() + 40]
        if company.named_in(after) or (opens and not company.names_someone_else(after.split()[:3])):
            return match.group(1)  # not "São Paulo-based Cerrado Partners joined the round"
    return None


# A person's role right before "based": where that person works, not the head office.
_SOMEONES_BASE = re.compile(
    r"(?i)\b(?:manager|director|head of [\w ]+|ceo|cto|cfo|coo|cro|vp|president|lead|engineer|representative|rep"
    r"|executive|directeur|directrice|responsable|chef|gerente|leiter\w*)\b[^.;]{0,40}?\bbased\s*$"
)
_CLAUSE_END = re.compile(r"[;.]|,\s*\d|\s+(?:and|with|while|but|where|et|avec|mais)\s+")  # "Aarhus, 41 in Warsaw"


def _judge_region(rule: RegionRule, found: Sequence[Sentence], company: Company) -> Judged | None:
    """The first sentence that says where the head office is decides; for a region of a country ("Auvergne-Rhône-
    Alpes"), the region of the city it names ("à Nantes": Pays de la Loire), or its country where that is another."""
    for sentence in found:
        fields = fields_of(sentence.text)
        place = next((fields[name] for name in (*CITY_FIELDS, *COUNTRY_FIELDS) if fields.get(name)), None)
        country = _record_country(sentence.text)
        if country is None:
            match = _HQ.search(sentence.text)
            if match and _SOMEONES_BASE.search(sentence.text[max(0, match.start() - 60) : match.start() + 6]):
                match = None  # "Sameer Qureshi, Country Manager, GCC, based in Dubai": where a person works
            place = _hq_place(match) if match else _based(sentence.text, company)
            # "a new role, ..., based in our Laredo office": an office's place, not the head office's
            office = bool(place and _AN_OFFICE.search(place) and not _HQ_NAMED.search(place))
            country = place_country(place) if place and not office else None
        if country is None:
            continue
        where = country.title()
        inside = country in rule.countries
        if rule.state and inside:
            state = state_of(place or "", country)
            if state is None:
                continue  # "in France": not which of its regions
            inside, where = state in rule.state.split("|"), f"{state.title()}, {where}"
        reason = f"headquartered in {where} ({'in' if inside else 'not in'} {rule.region})"
        return Judged("", "match" if inside else "no_match", reason, (sentence.citation(),))
    return None


def _judge_presence(rule: PresenceRule, found: Sequence[Sentence]) -> Judged | None:
    """A sentence naming the presence decides a match; else one saying it is only in the place, no match."""
    verdicts = [
        (verdict, sentence) for sentence in found if (verdict := presence_stated(rule, sentence.text)) is not None
    ]
    for verdict, sentence in sorted(verdicts, key=lambda item: not item[0]):
        reason = f"it has {rule.describe()}" if verdict else f"it has {rule.describe(none=True)}"
        return Judged("", "match" if verdict else "no_match", reason, (sentence.citation(),))
    return None


def _judge_hosting(rule: HostingRule, found: Sequence[Sentence]) -> Judged | None:
    """Hosting in the place named by any sentence decides a match; else hosting named only elsewhere, no match."""
    verdicts = [(verdict, sentence) for sentence in found if (verdict := hosted_where(rule, sentence.text)) is not None]
    # an American cloud named first, where the criterion asks for a provider of the place: "in France" alone does
    # not say who hosts it
    first = (lambda item: item[0]) if rule.local_provider else (lambda item: not item[0])
    for verdict, sentence in sorted(verdicts, key=first):
        reason = f"{'it hosts' if verdict else 'it does not host'} customer data in {rule.region}"
        return Judged("", "match" if verdict else "no_match", reason, (sentence.citation(),))
    return None


def _judge_channel(rule: ChannelRule, found: Sequence[Sentence]) -> Judged | None:
    """A sentence that sells through a channel the criterion names decides; else the sentences that say how the
    company sells (a denial first: "does not sell through resellers"): the first, or the newest where they
    disagree (the home page's "sold through resellers: since July 2026" over May's battlecard's "sells direct
    only"). A criterion asking for direct sales only takes the opposite verdict."""
    for sentence in found:
        if through_named(rule, sentence.text):
            return Judged("", "match", "it sells through a channel the criterion names", (sentence.citation(),))
    said = [(through, sentence) for sentence in found if (through := through_channel(sentence.text)) is not None]
    if not said:
        return None
    through, sentence = _newest_where_they_disagree(said)
    reason = "it sells through a channel" if through else "it sells only through its own team"
    return Judged("", "match" if through != rule.direct else "no_match", reason, (sentence.citation(),))


def _newest_where_they_disagree(said: list[tuple[bool, Sentence]]) -> tuple[bool, Sentence]:
    """The first verdict, or where the sentences disagree the one told last: by the later of the sentence's own
    date and its document's (an undated sentence is older than any dated one; a tie keeps the first)."""
    if len({verdict for verdict, _ in said}) == 1:
        return said[0]
    dates = _told_dates([sentence for _, sentence in said])
    newest = max(date or "" for date in dates)
    return next(item for item, date in zip(said, dates, strict=True) if (date or "") == newest)


_NEVER = datetime.date.min


def _told_dates(found: Sequence[Sentence]) -> list[str | None]:
    """When each sentence was told (ISO, None: undated): ``_told`` where a document among them is dated; where none
    is, their documents' dates (none), so sentences that disagree decide nothing ("profitable since 2024" on one
    undated page does not outdate another undated page's "loss-making")."""
    if not any(s.evidence.date for s in found):
        return [None for _ in found]
    return [told.isoformat() if (told := _told(s)) > _NEVER else None for s in found]


def _told(sentence: Sentence) -> datetime.date:
    """When a sentence tells what it says: the later of its own date and its document's (``_NEVER``: undated).
    "Molarline has a SOC 2 Type II report, issued in October 2026" on an undated page is newer than an August
    analyst's "audit in progress"; "Founded in 2012, ..." on this year's page is this year's."""
    spans = [date_span(sentence.text), date_span(sentence.evidence.date or "")]
    return max((span[1] for span in spans if span), default=_NEVER)


def _judge_buyer(rule: BuyerRule, found: Sequence[Sentence]) -> Judged | None:
    """The first sentence that says who pays decides (``businesses_pay``)."""
    for sentence in found:
        business = businesses_pay(sentence.text)
        if business is not None:
            reason = "businesses pay for it" if business else "consumers pay for it"
            match = business == rule.business
            return Judged("", "match" if match else "no_match", reason, (sentence.citation(),))
    return None


_NEGATED = re.compile(
    r"(?i)\b(does not|doesn't|do not|don't|no longer|stopped|not|no|never|without|n['\u2019]utilise (?:pas|plus)"
    r"|ne \w+ (?:pas|plus)|n['\u2019]\w+ (?:pas|plus)|aucune?|sans|jamais)\b"
)
# A change of tools: what comes after "from" / "replaced" is left, what comes after "to" / "with" is taken up
# ("moved from HubSpot to Salesforce", "replaced Salesforce with HubSpot", "a quitté Salesforce pour HubSpot").
_SWITCH = re.compile(
    r"(?i)\b(?:(?:migrat|mov|switch|transition)\w*(?: \w+){0,5} (?:away )?(?:from|off)|replac\w*|dropp\w*|retir\w*"
    r"|phas\w* out|ditch\w*|abandon\w*|sunset\w*|left|leaving|quitt\w*|migr\w* (?:depuis|de)|remplac\w*|l[âa]ch\w*)\b"
)
# A move still to come: "la migration vers un cloud qualifié ... est prévue", "will move to", "to fund a move to".
_TO_COME = re.compile(
    r"(?i)\b(?:migration\b[^.;]{0,40}\b(?:vers|to)|will (?:move|migrate|switch|run)|(?:plans?|planning|intends?) to"
    r"|moving to|financer|to fund|pr[ée]vue?s?|planned|d['\u2019]ici)\b"
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
        possessive = named is not None and re.search(rf"(?i)\b{re.escape(named)}['\u2019]s?\b", sentence.text)
        if named is not None and not possessive and (uses := _tech_use(named, sentence.text)) is not None:
            before = sentence.text.casefold().split(named.casefold())[0][-60:]
            if uses and _TO_COME.search(sentence.text.casefold().split(named.casefold())[0][-120:]):
                continue  # "L'argent doit financer la migration de la plateforme vers un cloud qualifié SecNumCloud"
            said.append((not _SWITCH.search(before), not uses, sentence))
    if said:
        _, denied, sentence = min(said, key=lambda item: item[0])  # the first change, else the first sentence
        reason = f"it does not use {rule.term}" if denied else f"it uses {rule.term}"
    elif rule.hosting and (elsewhere := _hosted_elsewhere(rule, found)) is not None:
        cloud, sentence = elsewhere
        denied, reason = True, f"it runs on {cloud}, not on {' or '.join((rule.term, *rule.others))}"
    else:
        return None
    met = denied if rule.absent else not denied
    return Judged("", "match" if met else "no_match", reason, (sentence.citation(),))


# A sentence that says where the platform runs: "le tout sur Kubernetes chez Scaleway, à Paris", "hosted in".
_HOSTING = re.compile(
    r"(?i)\b(?:runs?|running|hosted|hosts?|hosting|h[ée]berg\w*|tourne|deployed|infrastructure|stack|servers?"
    r"|serveurs?|data cent(?:er|re)s?|cloud)\b"
)


def _hosted_elsewhere(rule: TechRule, found: Sequence[Sentence]) -> tuple[str, Sentence] | None:
    """The first cloud other than the rule's that a sentence says the platform runs on, with the sentence."""
    asked = {fold(term) for term in rule.terms}
    for sentence in found:
        if not _HOSTING.search(sentence.text) or _NEGATED.search(sentence.text):
            continue
        folded = f" {fold(sentence.text)} "
        cloud = next((c for c in CLOUDS if fold(c) not in asked and f" {fold(c)} " in folded), None)
        if cloud is not None:
            return cloud, sentence
    return None


DATELINE_CHARS = 80


def _undated_reference(sentence: Sentence) -> bool:
    """Whether a sentence refers back to a round told elsewhere and gives it no date of its own ("Ridgeline partner
    Owen Marsh joined Dovecrest's board with the round."): its document's date is when it was told, not when the round
    closed."""
    return bool(_THE_ROUND.search(sentence.text)) and _own_span(sentence) is None


def _own_span(sentence: Sentence) -> tuple[datetime.date, datetime.date] | None:
    """The date the sentence itself gives (a month or a day without a year in its document's year), not its
    document's."""
    document = _document_span(sentence)
    return date_span(sentence.text, document[0].year if document else None)


def _document_span(sentence: Sentence) -> tuple[datetime.date, datetime.date] | None:
    """The date of a sentence's document: a record's own date ("naljja: 2026.02.03" in a media monitor's row: a field
    whose whole value is a day), else its document's stored date, else its dateline ("Nantes, le 3 septembre 2026.
    ...")."""
    for value in fields_of(sentence.text).values():
        if day := _a_day(value):
            return day
    return date_span(sentence.evidence.date or sentence.evidence.text[:DATELINE_CHARS])


def _a_day(value: str) -> tuple[datetime.date, datetime.date] | None:
    """A record's value that is a day and nothing more ("2026.02.03", "27 de outubro de 2026"), or None."""
    day = date_span(value) if len(value) <= _DAY_CHARS else None
    return day if day and day[0] == day[1] else None


_DAY_CHARS = 20  # "2026.02.03", "27 de outubro de 2026"


def _sentence_span(
    sentence: Sentence, cue: re.Pattern[str] | None = None
) -> tuple[datetime.date, datetime.date] | None:
    """The date a sentence gives its event, a day and month without a year read in its document's year; else
    its document's date. A table read as one line is read in the cell that tells the event (``cue``): "| People |
    136 FTE at 30 June | Money | Series B ..., closed 20.11.2025 |" dates the round 20 November 2025."""
    document = _document_span(sentence)
    text = sentence.text
    if fields := fields_of(text):  # a row's date field is when it was told: its other fields say when it happened
        text = " ".join(value for value in fields.values() if not _a_day(value))
    if cue is not None and text.count("|") >= TABLE_CELLS:
        text = next((cell for cell in text.split("|") if cue.search(cell)), text)
    span = date_span(text, document[0].year if document else None)
    if span and document and span[0] > document[1] and span != date_span(text) and _DONE.search(text):
        # a day told without its year, after the day it was told, of what is done ("signé le 6 novembre dernier" in
        # January's article): it happened in the year before ("joins as CTO on 1 September" in August is to come)
        return _a_year_before(span[0]), _a_year_before(span[1])
    return span or document


def _a_year_before(day: datetime.date) -> datetime.date:
    return day.replace(year=day.year - 1, day=28 if (day.month, day.day) == (2, 29) else day.day)


# A deal, round or purchase done ("closed", "signed", "bouclée", "clôturée", "actée"), and what a sentence says is
# done: those, "le 6 novembre dernier", "last November".
_SEALED = r"closed|completed|signed|finali[sz]ed|boucl[ée]e?s?|cl[ôo]tur[ée]e?s?|sign[ée]e?s?|act[ée]e?s?"
_DONE = re.compile(
    rf"(?i)\b(?:dernier|derni[èe]re|last|{_SEALED}|paid[- ]in|raised|secured|(?:a|ont) lev[ée]|lev[ée]e? en)\b"
)


TABLE_CELLS = 4  # pipes that make a sentence a table read as one line


# An event to come, or a rumour of one: nothing that happened ("parlait d'une série B « l'an prochain », ... une
# rumeur de salon", "expects to raise next year").
_NOT_YET = re.compile(
    r"(?i)\b(?:next year|later this year|in the coming (?:months|year)|rumou?rs?|rumeurs?|l['\u2019]an prochain"
    r"|l['\u2019]ann[ée]e prochaine|plans? to raise|expects? to raise|pr[ée]voit de lever|envisage de lever"
    r"|(?:plans?|plann(?:ed|ing)|looking|in talks|seeks?|seeking|wants?|intends?) to|pourrait racheter"
    r"|envisage de|pr[ée]voit d['\u2019e]|parl\w* d['\u2019]une (?:lev[ée]e|s[ée]rie)"
    r"|talk(?:s|ed|ing)? (?:of|about) a|sp[ée]cul\w*|bruits? de couloir|on murmure|dicen|se dice"
    r"|(?:voudrai|pourrai)\w* (?:entrer|lever|racheter|investir)|pas un mot|no word)"
)


# A sentence that refers back to the round a document is about ("The round closed in September 2025", "cette levée").
_THE_ROUND = re.compile(
    r"(?i)\b(?:the|this|that) (?:round|raise|funding|investment|capital increase|share issue)\b"
    r"|\b(?:la|cette) lev[ée]e\b|\b(?:ce|le) tour\b|\b(?:l['\u2019]|cette )augmentation de capital\b"
)
# ... and says when it closed ("closed in September 2025", "a bouclé le 14 avril"), not what it adds up to ("Avec ce
# tour, la société a levé 34,5 millions d'euros depuis sa création en 2019").
_CLOSED = re.compile(
    rf"(?i)\b(?:{_SEALED}|approved|finalis[ée]e?s?|approuv[ée]e?s?|paid[- ](?:in|up)|lib[ée]r[ée]e?s?|eingezahlt)\b"
)


def _dated_elsewhere(sentence: Sentence, told: Sequence[Sentence]) -> bool:
    """Whether ``sentence`` gives no date of its own, and another sentence of its document that tells the same event
    dates it in its own words ("Gärwerk raises EUR 14 million", in an article of 2 December 2025 that says "The
    round closed in September 2025"; "a bouclé le 14 avril 2026 une levée de 6,5 millions" under the 2 June
    headline): the article's date is when it was told, not when it happened. The same event: the other sentence
    says when it closed, and one of the two refers back to the other ("the round") or they share an amount; or
    another document says when a round of the same amount closed (an analyst's "Plateloop's A$38 million Series B
    ... closed on 27 June 2025" dates the round an August article says Plateloop "has raised"). A byline's date
    read with the lede ("Por Arturo Leal · 28 de octubre de 2026 · MONTERREY - Anclaruta ... raised USD 21
    million") is its document's, no date of the event's own."""
    own = date_span(sentence.text)
    if own is not None and own != date_span(sentence.evidence.date or "~"):
        return False
    amounts = amounts_in(sentence.text, scaled=True)
    refers = bool(_THE_ROUND.search(sentence.text))  # "The round was not announced until now."
    # its own passage's sentences too, though they do not name the company: "The new shares were paid in on November
    # 28, 2025, but the company disclosed the round only in January"
    passage = [Sentence(text, sentence.evidence) for text in sentences(sentence.evidence.text, sentence.evidence.title)]
    for other in [*told, *(s for s in passage if _THE_ROUND.search(s.text))]:
        # "quietly closed a USD 21 million Serie B back in March": a month in its document's year
        if other.text == sentence.text or _own_span(other) is None or not _CLOSED.search(other.text):
            continue
        shared = bool(amounts & amounts_in(other.text, scaled=True))
        if other.evidence.doc_id != sentence.evidence.doc_id:
            if shared:  # another document's "Plateloop's A$38 million Series B ... closed on 27 June 2025"
                return True
        elif refers or _THE_ROUND.search(other.text) or shared:
            return True
    return False


# Events a company goes through (raising money, cutting jobs): a sentence where another name stands before the
# event's words in their clause, after the company's last mention, tells that other's ("Karlsruhe-based Messreihe
# Software GmbH ... closed a EUR 15 million round ...; unlike Probalis, ..."). Not for a new executive or a launch,
# whose sentences open with a person's or a product's name, nor an acquisition ("Halvorix's ClaimHarbor acquisition").
_DONE_BY_A_COMPANY = frozenset({"funding", "layoffs"})
_CELL_OR_CLAUSE = re.compile(r"[;|]")


def _anothers_event(rule: EventRule, sentence: Sentence, company: Company) -> bool:
    """Whether the event the sentence tells is another's: another name before its words (above), or for any event
    another name's possessive right before them ("Ironbark's new CFO came from ..., Plateloop's biggest customer")."""
    cue = EVENT_CUES[rule.event].search(sentence.text)
    if cue is None:
        return False
    clause = _CELL_OR_CLAUSE.split(sentence.text[: cue.start()])[-1]
    owner = _OWNER_BEFORE.search(clause)
    if owner and company.names_someone_else([owner.group(1)]):
        return True
    return rule.event in _DONE_BY_A_COMPANY and company.names_someone_else(company.after_its_name(clause).split())


_OWNER_BEFORE = re.compile(r"(\S+)['\u2019]s?\s+(?:\w+\s+){0,1}$")  # "Ironbark's " or "Ironbark's new "


# What a round's money paid for is not the round: "l'argent de la série A a financé le rachat de Nutriplan ... en
# mars 2026", "the Series B money funded the move to Lyon in May", "the Series A money goes to Steril".
_SPENT = re.compile(
    r"(?i)[^.;]{0,25}?\b(?:a|ont|has|have|had|was|were|is|will)?\s*(?:financ[ée]\w*|funded|paid for|servi [àa]|permis"
    r"|went (?:to|into)|go(?:es)? (?:to|into)|pays? for|used (?:to|for)|utilis[ée]\w*|sert [àa]|va [àa])\b"
)


# A round's own words: "API limits raised" raises no money.
_A_ROUND = re.compile(
    r"(?i)\b(?:series|serie|s[ée]rie|seed|round|funding|fund-?raising|investors?|investment|capital|lev[ée]e"
    r"|tour de table|financement|ronde|kapital\w*|equity|venture)\b"
)


def _money_raised(text: str) -> bool:
    """Whether a sentence with a funding word is about money raised for equity: a round's words or a sum of money in
    it, and not a loan alone ("a 1.5 billion yen commitment line ...; it is a bank facility, not an equity
    investment")."""
    if _DEBT.search(text) and not any(not negated_before(text[: m.start()], 3) for m in _EQUITY.finditer(text)):
        return False
    return bool(_A_ROUND.search(text) or amounts_in(text, scaled=True) or currency_in(text))


# Money lent, not invested: a loan is no round.
_DEBT = re.compile(
    r"(?i)\b(?:loans?|commitment lines?|credit (?:lines?|facilit(?:y|ies))|bank facilit(?:y|ies)|(?:venture )?debt"
    r"|pr[êe]ts? (?:bancaires?|garantis?|de|d['\u2019])|emprunts?|PGE|Darlehen|Kredit\w*)\b"
)
# A round's own words, where a sentence also names a loan: "a Series B and a bank loan".
_EQUITY = re.compile(
    r"(?i)\b(?:series [a-e]|s[ée]rie [a-e]|seed|equity|tour de table|lev[ée]e de fonds|capital increase|new shares"
    r"|augmentation de capital|actions nouvelles|venture capital|share issue|Kapitalerh[öo]hung)\b"
)


def _judge_event(rule: EventRule, found: Sequence[Sentence], company: Company, as_of: datetime.date) -> Judged | None:
    cutoff = rule.since or as_of - datetime.timedelta(days=rule.days)
    last = min(as_of, rule.until) if rule.until else as_of  # "au second semestre 2025": not in April 2026
    window = f"since {rule.since.isoformat()}" if rule.since else f"within {rule.days} days of {as_of.isoformat()}"
    window = f"{window} until {last.isoformat()}" if last < as_of else window
    outside: Sentence | None = None
    told = [
        s
        for s in found
        if (cue := EVENT_CUES[rule.event].search(s.text))
        and not _NOT_YET.search(s.text)
        and not (rule.event == "funding" and (_SPENT.match(s.text, cue.end()) or not _money_raised(s.text)))
        # a funding word that names a loan ("a five-year investment loan that Pamukiz took ... in July 2026")
        and not (rule.event == "funding" and _DEBT.match(s.text[cue.end() :].lstrip()))
        and not _anothers_event(rule, s, company)
    ]
    for sentence in told:
        if rule.event == "funding" and (_dated_elsewhere(sentence, told) or _undated_reference(sentence)):
            continue
        span = _sentence_span(sentence, EVENT_CUES[rule.event])
        if span is None:
            continue
        earliest, latest = span
        if earliest >= cutoff and earliest <= last:
            reason = f"{rule.event} on {earliest.isoformat()[:7]} ({window})"
            return Judged("", "no_match" if rule.absent else "match", reason, (sentence.citation(),))
        if latest < cutoff and outside is None:
            outside = sentence
    if outside is not None and not rule.absent:  # an old event does not show that none happened since
        span = _sentence_span(outside)
        when = span[1].isoformat()[:7] if span else "?"
        reason = f"the latest {rule.event} found is from {when}, before the window ({window})"
        return Judged("", "no_match", reason, (outside.citation(),))
    return None


def _another_party_first(rule: StatementRule, text: str, company: Company) -> bool:
    """Whether a name other than the company's stands between its last mention and the criterion's key words
    ("Sentinaire se dit rentable depuis 2025, ce que Leurrebois ne peut pas encore revendiquer": the sentence's
    first word is a name when the documents never write it in lower case, as "Revenue" and "Depuis" are)."""
    keys = split_at_keys(rule, text)
    before = company.after_its_name(keys.before)
    # a name among the key words ("La certification : Saladier est certifié ISO 27001 ; Louchebel ne l'est pas")
    # where the company is not named before them (a name before the company's is no subject of the keys)
    said = keys.said
    unnamed = company.after_its_name(said) == said  # nor referred to ("the company")
    among = said if unnamed else before
    after = " ".join(keys.after.split()[:_OWNER_AFTER_WORDS])
    supplier = _ITS_SUPPLIER.search(before) or _ITS_SUPPLIER.search(after)
    # "les certificats HDS et ISO 27001 d'OVHcloud, leur hébergeur": the certificates of someone named after them
    owned = unnamed and (of := _OF_OWNER.match(after)) and company.names_someone_else(["", of.group(1)])
    return company.names_someone_else(among.split()) or bool(supplier or owned)


_OWNER_AFTER_WORDS = 4
_OF_OWNER = re.compile(r"(?i)\s*(?:of|from|d['\u2019]|de|du|des|von|di)\s*([A-Z\u00c0-\u00de][\w-]+)")


# A supplier of the company as the subject of what is stated: "Nos hébergeurs sont certifiés ISO 27001", "Both
# Nordwand data centres are certified to ISO/IEC 27001".
_ITS_SUPPLIER = re.compile(
    r"(?i)\b(?:h[ée]bergeurs?|hosting (?:providers?|partners?)|hosts|data ?cent(?:re|er)s?|datacenters?"
    r"|centres? de donn[ée]es|cloud providers?|providers?|fournisseurs?|suppliers?|partners?|partenaires?"
    r"|sous-traitants?|subprocessors?)\b"
)


# What holds until a day to come is so today ("a SOC 2 Type II report valid until March 2027").
_UNTIL = re.compile(r"(?i)\b(?:until|till|through|valid|expires?|expiring|renew\w*|jusqu['\u2019]|valable|expire)\b")


# Key words of a criterion that asks for a plan ("Plans to open an office in Germany").
_ASKS_A_PLAN = frozenset("plan plans planned planning will prevoit prevu prevue projet projette roadmap".split())


def _planned(text: str, as_of: datetime.date) -> bool:
    """Whether a sentence dates what it says after ``as_of``: a plan, not a fact of today ('"ISO/IEC 27001
    certification audit January 2027"', "certification prévue pour mars 2027")."""
    span = date_span(text)
    if span is None or span[0] <= as_of:
        return False
    year = text.find(str(span[0].year))
    return not _UNTIL.search(text[:year] if year >= 0 else text)


def _judge_founded(
    rule: FoundedRule, found: Sequence[Sentence], company: Company, as_of: datetime.date
) -> Judged | None:
    """The first sentence that says when the company was founded decides: not a look-alike's, nor a rival's, nor
    another's named between the company and the founding word ("Cuyotrack S.A., Uvalia's rival, founded in
    2008")."""
    earliest, latest = rule.bounds(as_of.year)
    for sentence in found:
        if company.lookalike_in(sentence.text) or company.opens_with_another(sentence.text):
            continue
        if (year := founding_year(sentence.text)) is None:
            continue
        founded, at = year
        if company.names_someone_else(company.after_its_name(sentence.text[:at]).split()):
            continue
        inside = (earliest is None or founded >= earliest) and (latest is None or founded <= latest)
        reason = f"founded in {founded} ({'' if inside else 'not '}{rule.describe()})"
        return Judged("", "match" if inside else "no_match", reason, (sentence.citation(),))
    return None


def _judge_statement(
    rule: StatementRule, found: Sequence[Sentence], company: Company, as_of: datetime.date
) -> Judged | None:
    """A sentence that states or denies the criterion decides it, unless another party is named between the
    company and the key words: "Fourchelune Pay s'appuie sur Banque Ardelis, ... certifié ... ISO 27001" is the
    bank's certificate."""
    found = [s for s in found if not _another_party_first(rule, s.text, company)]  # rivals' news dropped before
    # what a page archived more than a year ago said is not what the company does now
    found = [s for s in found if not _stale(s, as_of)]
    # what a sentence dates after today is a plan: "audit scheduled for January 2027, the certificate expected by
    # March 2027" says it is not held today, when no other sentence says it is (a criterion that asks for a plan
    # is stated by it)
    planned = [s for s in found if _planned(s.text, as_of) and stated(rule, s.text)]
    found = [s for s in found if s not in planned]
    verdict = stated_in(rule, [s.text for s in found], _told_dates(found))
    if verdict is None and planned and not _ASKS_A_PLAN.intersection(rule.keys):
        reason = f"a sentence about it dates it after {as_of.isoformat()}: not so today"
        return Judged("", "no_match", reason, (planned[0].citation(),))
    if verdict is None:
        return None
    states, index = verdict
    reason = "a sentence about it states it" if states else "a sentence about it denies it"
    return Judged("", "match" if states else "no_match", reason, (found[index].citation(),))


class ModelJudge(Protocol):
    """A language model's judge for the criteria the rules cannot read (the openai writer's ``icp_judge``)."""

    def __call__(self, criterion: Criterion, company: str, evidence: Sequence[Evidence]) -> Judged: ...


def _judge_how(
    rule: PresenceRule | ChannelRule | BuyerRule | HostingRule | TechRule, found: Sequence[Sentence]
) -> Judged | None:
    """Where it has offices or customers, how it sells, who pays, where it is hosted, what it uses: the sentences
    alone decide (no date, no figure)."""
    match rule:
        case HostingRule():
            return _judge_hosting(rule, found)
        case TechRule():
            return _judge_tech(rule, found)
        case PresenceRule():
            return _judge_presence(rule, found)
        case ChannelRule():
            return _judge_channel(rule, found)
        case BuyerRule():
            return _judge_buyer(rule, found)


def _judged_by(rule: Rule, found: Sequence[Sentence], company: Company, as_of: datetime.date) -> Judged | None:
    # a rival's news is the rival's figures, events, offices, channels and tools ("Son principal concurrent, le
    # lillois Gribouille Systèmes, ... dit déjà compter des crèches en Belgique"): read once; a head office and a
    # founding year keep their own checks
    not_rivals = [s for s in found if not company.rivals_news(s.text)]
    match rule:
        case RegionRule():
            return _judge_region(rule, found, company)
        case FoundedRule():
            return _judge_founded(rule, found, company, as_of)
        case NumericRule():
            return _judge_numeric(rule, not_rivals, company, as_of)
        case PresenceRule() | ChannelRule() | BuyerRule() | HostingRule() | TechRule():
            # and a sentence that names a look-alike may give the look-alike's ("has nothing to do with Vetalerta
            # Geotecnia Ltda., ... a firm that ... has an office in Perth")
            return _judge_how(rule, [s for s in not_rivals if not company.lookalike_in(s.text)])
        case EventRule():
            return _judge_event(rule, not_rivals, company, as_of)
        case StatementRule():
            return _judge_statement(rule, not_rivals, company, as_of)
        case _:
            assert_never(rule)


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
    found = company_sentences(company, evidence)
    decided = _judged_by(rule, found, company, as_of) if rule is not None else None
    if decided is None and isinstance(rule, StatementRule) and (named := statement_rule(criterion.name)) != rule:
        # the criterion's name as a phrase ("Free trial" over "Lets a prospect use the product for free before
        # signing"): a page says "no free trial" more often than the description's words; a name's words apart
        # ("Paie France en production" beside "logiciel de paie ... en France") are not the criterion; and the names
        # it gives stated too ("Mobile keys in Samsung Wallet": not any "mobile keys")
        asked = with_named(named, criterion.name)
        decided = _judged_by(asked, _saying(named, found), company, as_of) if named and asked else None
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


def _saying(rule: StatementRule, found: Sequence[Sentence]) -> list[Sentence]:
    """The sentences that hold the rule's key words together, as one phrase (a single key word: all of them)."""
    if len(rule.keys) == 1:  # one key word ("Rentable"): any sentence that holds it
        return list(found)
    phrase = f" {' '.join(rule.keys)} "
    return [] if "|" in phrase else [s for s in found if phrase in f" {fold(s.text)} "]


class Weighed(Protocol):
    """A criterion's verdict and weight (a ``Judged``, or a stored ``CriterionResult`` an analyst overrode)."""

    @property
    def verdict(self) -> str: ...

    @property
    def weight(self) -> float: ...


def fit_score(judged: Sequence[Weighed]) -> float | None:
    """The weighted share of the decided criteria that match (None when none is decided)."""
    decided = [item for item in judged if item.verdict != "unknown"]
    total = sum(item.weight for item in decided)
    if not decided or total <= 0:
        return None
    return sum(item.weight for item in decided if item.verdict == "match") / total


def coverage(judged: Sequence[Weighed]) -> float:
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
    ]
    notes += names_notes(known, (item.text for item in evidence))
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
