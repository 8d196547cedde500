"""Sources that disagree on one figure, shown together instead of one picked silently.

"More than 1,200 farms" on the company's site and "1,140 paying farm customers" in an analyst's note; a plan at
"AUD 9 per hectare" on the current price page and "AUD 7.50 per hectare" on an older capture. Two claims of a
report disagree on a figure when:

- they cite different files (two rows of one export are two records, not two sources);
- each holds an amount of the same unit: one of the two words after it, singular and plural alike, past the
  words that only qualify a count ("paying", "active", "new"), or its rate ("per hectare", "par praticien"),
  in the same currency;
- their amounts for that unit differ, within a factor of ``NEAR`` (a fact restated, not another figure: "12 new
  farms" is not the "1,200 farms" it adds to); a claim that states one of the other's amounts ("AUD 9, was
  AUD 7.50") does not disagree with it;
- or, however far apart, both state a total of a thing a company has one count of at a time (its staff, its
  customers: "Halvorix has 120 employees" and "Halvorix has 10,000 employees"): said as what it has ("has",
  "employs", "a team of"), not as a change ("hired 40", "12 new") nor of one place ("120 employees in Berlin");
  "staff", "people" and "employees" count the same thing;
- a rate's claims name the same things ("Paddock Pro" at AUD 9 and "Starter" at AUD 4 are two plans, not a
  conflict); the company's own names are not counted.

The claims of a conflict stand together in the section of the first of them (``with_conflicts``), each with its
own citations and dates, so the reader sees both figures and their sources.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from research.protocol.report import Claim, Conflict, Section
from research.retrieval.parsing.text import MONTHS
from research.writing.amounts import AMOUNT, CURRENCY_CODES, CURRENCY_SIGNS, amount_value, amounts_in
from research.writing.names import Company
from research.writing.text import fold

NEAR = 2.0  # two amounts more than this factor apart are two figures, not one figure stated twice
# Words that qualify a count without saying what is counted: "1,140 *paying* farm customers". Hand-written, short.
_QUALIFIERS = frozenset(
    """paying active registered current existing new total unique monthly daily live full-time more over about
    nearly some roughly around approximately plus de d environ clients-""".split()
)
_CURRENCY = re.compile(rf"(?i)([{CURRENCY_SIGNS}]|\b{CURRENCY_CODES}\b)")
_WORD = r"[^\W\d_][\w'\u2019-]*"
_AFTER = re.compile(rf"\s*\+?\s*(%|€)?\s*({_WORD})?(?:\s+({_WORD}))?(?:\s+({_WORD}))?")
_SIGNS = {"eur": "€", "usd": "$", "gbp": "£", "€": "€", "$": "$", "£": "£", "aud": "aud", "cad": "cad", "chf": "chf"}
_SIGNS |= {"nzd": "nzd"}
# The words between an amount and what it counts: "30% *of* revenue", "EUR 18 million *in a* Series B".
_LINKS = frozenset("of in on at for from to and a an the by with de du des d en dans pour et le la les au aux".split())
_PER = frozenset({"per", "par", "a", "an", "/", "chaque"})
_RANGE_AFTER = re.compile(r"\s*(?:to|-|\u2013|à|and|et)\s*(?:[$€£₹¥]|[A-Z]{3})?\s*\d")
_RANGE_BEFORE = re.compile(r"\d\s*[%€]?\s*(?:to|-|\u2013|à|and|et)\s*(?:[$€£₹¥]|[A-Z]{3})?\s*$")
_VERSION = re.compile(r"\d+\.\d+")
_VERSION_BEFORE = re.compile(r"(?:\b[A-Z][\w-]*|\bv|\bversion|\brelease|\bto|\bfrom)\s*$")
_BOUND = re.compile(
    r"(?i)\b(?:minimum|min\.?|maximum|max\.?|up to|at least|at most|no more than|fewer than|less than|from"
    r"|jusqu['\u2019]\s?[àa]|au moins|au plus|minimum de|maximum de|[àa] partir de)\s*(?:of\s*)?"
    r"(?:[$€£₹¥]|[A-Z]{3})?\s*$"
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_CAPITALISED = re.compile(r"\b[A-Z][\w'\u2019&-]*")
_STARTERS = frozenset(
    """the a an we our it its this that these they their in on at since from for as after before with by
    le la les l un une nous notre nos il elle ils depuis en au aux avec pour dans sur selon""".split()
)
_MONTHS = frozenset(MONTHS) | frozenset(
    """monday tuesday wednesday thursday friday saturday sunday
    lundi mardi mercredi jeudi vendredi samedi dimanche""".split()
)


# Things a company has one count of at a time, and the words that count them (folded, singular) -> one unit.
_ONE_COUNT = {
    **dict.fromkeys(
        ["employee", "staff", "people", "person", "salarie", "employe", "collaborateur", "fte"], "employee"
    ),
    **dict.fromkeys(["customer", "client"], "customer"),
}
# Said as what the company has: "has 120", "employs 120", "a team of 120", "compte 120", "with about 120".
_HAS = re.compile(
    r"(?i)\b(?:has|have|had|employs|employed|employing|team of|headcount of|workforce of|counts|serves|with|compte"
    r"|emploie|employait|avec|équipe de|equipe de|sert)\s*(?:about|around|roughly|nearly|some|over|more than"
    r"|plus de|environ|près de|pres de)?\s*$"
)
# Said as a change: "hired 40", "added 300", "+40", "12 new"; or of one place: "120 employees in Berlin".
_CHANGED_BEFORE = re.compile(
    r"(?i)(?:\b(?:hired|hiring|hires|added|adds|adding|lost|loses|recruited|recruits|recrute|recruté|embauché"
    r"|ajouté|gagné|perdu|grew by|by)\s*|\+\s*)$"
)
_CHANGED_WORDS = frozenset("new more additional extra nouveaux nouvelles nouveau supplementaires".split())
_PLACE_AFTER = re.compile(r"\s+(?:in|at|à|a|en|au)\s+[A-Z]")


@dataclass(frozen=True)
class Figure:
    value: float
    units: dict[str, str]  # what it counts or prices, folded -> as written: {"merchant": "merchants"}
    currency: str  # folded currency sign or code, "" for a count
    rate: bool  # a price or a rate ("per ..."): its claims must name the same things
    total: bool = False  # the whole count of a thing a company has one count of (``_ONE_COUNT``)


def _singular(word: str) -> str:
    word = fold(word).strip("'\u2019")
    return word[:-1] if len(word) > 3 and word[-1] in "sx" and not word.endswith("ss") else word


def figures(text: str) -> list[Figure]:
    """The amounts a claim states with what they count or price (``_figures``)."""
    return list(_figures(text))


@functools.lru_cache(maxsize=8192)  # a report compares each claim with every other: each text is read once
def _figures(text: str) -> tuple[Figure, ...]:
    """The amounts a claim states with what they count or price; years, ranges, limits, versions and bare
    numbers are not figures."""
    found = []
    for match in re.finditer(rf"(?i){AMOUNT}", text):
        currency = _currency(text, match)
        if _an_amount(text, match, currency) and (figure := _figure(text, match, currency)) is not None:
            found.append(figure)
    return tuple(found)


def _currency(text: str, match: re.Match[str]) -> str:
    """The currency written before the amount ("AUD 9", "€59", "EUR 49"), as one sign for each currency."""
    before = text[max(0, match.start() - 6) : match.end()]
    found = _CURRENCY.search(match.group(0)) or _CURRENCY.search(before)
    return _SIGNS.get(found.group(1).casefold(), found.group(1).casefold()) if found else ""


def _an_amount(text: str, match: re.Match[str], currency: str) -> bool:
    digits, head = match.group(1), text[: match.start(1)]
    if _YEAR.fullmatch(digits) and match.group(2) is None:
        return False
    if _RANGE_AFTER.match(text, match.end()) or _RANGE_BEFORE.search(head):
        return False  # "for employers with 25 to 2,500 staff": a range's ends are not a figure
    if _VERSION.fullmatch(digits) and not (match.group(2) or currency) and _VERSION_BEFORE.search(head):
        return False  # "Stellique 3.0", "upgrade to 2.4": a version, not an amount
    return not _BOUND.search(head)  # "minimum 25 employees", "up to 40 users": a limit, not a figure


def _figure(text: str, match: re.Match[str], currency: str) -> Figure | None:
    after = _AFTER.match(text, match.end())
    sign_after, *following = after.groups() if after else (None,)
    words = [w for w in following if w]
    if words and words[0].casefold() in _SIGNS and not (sign_after or currency):  # "49 EUR par praticien"
        sign_after, words = words[0].casefold(), words[1:]
    while words and fold(words[0]) in _QUALIFIERS:
        words = words[1:]
    changed = any(fold(word) in _CHANGED_WORDS for word in following if word)
    percent = sign_after == "%"
    sign = "" if percent else (currency or _SIGNS.get(sign_after or "", ""))
    units = _units(words, sign, percent)
    if not units:
        return None
    rate = any(unit.startswith("per ") for unit in units) or bool(sign)
    total = _a_total(text, match, units, changed=changed or bool(sign) or percent)
    return Figure(amount_value(match.group(1), match.group(2)), units, sign, rate, total)


def _a_total(text: str, match: re.Match[str], units: dict[str, str], *, changed: bool) -> bool:
    """Whether the amount is the whole count of its company's staff or customers, said as what it has."""
    if changed or not any(unit in _ONE_COUNT.values() for unit in units):
        return False
    head = text[max(0, match.start() - 40) : match.start()]
    if _CHANGED_BEFORE.search(head) or not _HAS.search(head):
        return False
    unit_end = text.find(next(iter(units.values())), match.end())
    return unit_end < 0 or not _PLACE_AFTER.match(text, unit_end + len(next(iter(units.values()))))


def _units(words: list[str], sign: str, percent: bool) -> dict[str, str]:
    """What an amount counts or prices: "per hectare"; the first two words past the qualifiers ("4,000 online
    merchants" counts merchants as well); a name and its noun together ("14 Shiftmarrow employees")."""
    if len(words) > 1 and fold(words[0]) in _PER:
        return {f"per {_singular(words[1])}": f"{words[0]} {words[1]}"}
    counted = [w for w in words if fold(w) not in _LINKS and fold(w) not in _PER][:2]
    if len(counted) == 2 and counted[0][:1].isupper():
        counted = [" ".join(counted)]
    prefix = "% " if percent else ""
    if counted:
        return {prefix + _ONE_COUNT.get(_singular(w), _singular(w)): prefix + w for w in counted}
    return {prefix.strip(): prefix.strip() or sign} if (sign or percent) else {}


def _named(company: Company, text: str) -> frozenset[str]:
    """The things a claim names (its capitalised words), without the company's own names, months and sentence
    openers: "Paddock Pro", "Starter"."""
    own = {word for name in company.names for word in name.split()}
    words = {fold(word).strip("'\u2019") for word in _CAPITALISED.findall(text)}
    ignored = _STARTERS | _MONTHS | set(_SIGNS)
    return frozenset(w for w in words if w not in own and w not in ignored and len(w) > 1)


def _documents(claim: Claim) -> frozenset[str]:
    """The files a claim cites (two rows of one export, two messages of one mailbox are one source)."""
    return frozenset(citation.source or citation.doc_id for citation in claim.citations)


def disagreement(company: Company, first: Claim, second: Claim) -> str | None:
    """The unit ``first`` and ``second`` state different amounts of (its label as ``first`` writes it), or None."""
    if _documents(first) & _documents(second):
        return None
    theirs = figures(second.text)
    for figure in figures(first.text):
        same = [f for f in theirs if f.units.keys() & figure.units.keys() and f.currency == figure.currency]
        if not same or any(f.value == figure.value for f in same):
            continue
        near = any(0 < f.value / figure.value <= NEAR and figure.value / f.value <= NEAR for f in same if figure.value)
        if not near and not (figure.total and any(f.total for f in same)):
            continue
        if figure.rate and _named(company, first.text) != _named(company, second.text):
            continue
        if amounts_in(first.text) & {f.value for f in same}:
            continue
        shared = next(unit for f in same for unit in figure.units if unit in f.units)
        return figure.units[shared]
    return None


def with_conflicts(company: Company, sections: Sequence[Section], pool: Sequence[Claim]) -> list[Section]:
    """``sections`` with each shown claim's disagreeing claims (shown or only in ``pool``, what the writers
    proposed and the citation check let through) beside it: in the section of the first claim of the
    conflict, as one ``Conflict``; a claim stands in one conflict at most."""
    result = list(sections)
    taken: set[str] = set()
    candidates = list(dict.fromkeys([*(c for s in sections for c in s.claims), *pool]))
    for index, section in enumerate(sections):
        for claim in section.claims:
            if claim.text in taken:
                continue
            found = [(other, disagreement(company, claim, other)) for other in candidates if other.text not in taken]
            partners = [other for other, label in found if label is not None and other.text != claim.text]
            if not partners:
                continue
            label = next(label for _, label in found if label is not None)
            group = (claim, *partners)
            taken.update(item.text for item in group)
            result = _gathered(result, index, Conflict(about=label, claims=group))
    return result


def _gathered(sections: list[Section], index: int, conflict: Conflict) -> list[Section]:
    """The conflict recorded in section ``index``, with those of its claims that no section shows yet (a claim
    another section shows stays there too: the conflict only points at it again)."""
    shown = {claim.text for section in sections for claim in section.claims}
    home = sections[index]
    new = tuple(claim for claim in conflict.claims if claim.text not in shown)
    sections[index] = dataclasses.replace(
        home, claims=(*home.claims, *new), conflicts=(*home.conflicts, conflict), not_found=False
    )
    return sections
