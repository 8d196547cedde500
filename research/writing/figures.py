"""The people and money a sentence states about a company: its headcount ("164 employees", "a team of 212", a CRM
row's employees column) and its revenue ("revenue of EUR 81 million"), not counts of people laid off, hired or
planned, nor another company's or its customers' staff. The ICP judge decides size criteria from them; the
extractive writer places a headcount in the report's leadership section."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from text_to_num import alpha2digit

from research.retrieval.parsing.text import MONTHS
from research.writing.amounts import AMOUNT, CURRENCY_CODES, CURRENCY_SIGNS, SCALE_WORDS, amount_value, currency_in
from research.writing.structure import fields_of
from research.writing.text import fold

EMPLOYEE_WORDS = (
    r"(?:employees|employee|staff|people|workers|headcount|fte|ftes|team members|colleagues|salari[ée]s|employ[ée]s"
    r"|collaborateurs|coll[èe]gues|personnes)"
)
REVENUE_WORDS = (
    r"(?:revenue|revenues|sales|turnover|arr|annual recurring revenue|chiffre d'affaires|ca|fatturato|umsatz"
    r"|facturaci[óo]n|ingresos|faturamento|omzet|oms[æä]tning|omsetning|liikevaihto|przychody|tržby|tržeb|obrat)"
)
# Recurring revenue, which a criterion on revenue (turnover, fatturato) does not count where revenue is stated too.
ARR_WORDS = re.compile(r"(?i)\b(?:arr|annual recurring revenue|recurring revenue|revenus r[ée]currents)\b")


EMPLOYEE_FIELDS = ("employees", "employee_count", "num_employees", "headcount", "staff", "fte")
REVENUE_FIELDS = ("revenue", "annual_revenue", "revenue_usd", "arr")


def _field_number(fields: dict[str, str], names: Sequence[str]) -> float | None:
    for name in names:
        match = re.fullmatch(rf"(?i)\s*{AMOUNT}\s*", fields.get(name, ""))
        if match:
            return amount_value(match.group(1), match.group(2))
    return None


# A number of people laid off, hired or planned is no headcount: "laid off 25 people", "plans to hire 40 engineers".
_NOT_HEADCOUNT = re.compile(
    r"(?i)\b(?:laid off|lay off|laying off|lays off|let go|let|lets|letting|cut|cuts|cutting|layoffs? of"
    r"|redundanc\w*|hire|hires|hired|hiring|recruit\w*|add|adds|adding|added|plans? to|will|grow by|growing by"
    r"|took on|takes? on|taking on|onboard\w*|welcom\w*|across|among|covering|pour"
    r"|another|licenci\w*|queue of|crowd of|audience of|foule de|file d['\u2019]attente de"
    r"|recrut\w*|embauch\w*|engag[ée]\w*|s[ée]parer? de|supprimer?)\b[^.;]{0,25}$"
    # people something is for: "our offer for 1,150 people", "a licence for about 300 users"
    r"|\bfor(?:\s+about|\s+around|\s+some|\s+up to)?\s*$"
)


# Staff that are not the company's: another's ("Ledgerwisp's 22 employees"), its customers' ("employers with 25 to
# 2,500 staff", "1,200 employers pay over 310,000 people").
_OTHERS_STAFF = re.compile(
    # a size band ("banks with 50 to 1,000 employees") is the customers', not a headcount
    r"(?:\d[\d,.]*\s*(?:to|-|\u2013|à)\s*$"
    r"|\b[A-Z][\w-]*['\u2019]s\s*$|\b(?:employers|customers|companies|businesses|clients|organi[sz]ations|firms"
    r"|merchants|practices|cabinets|entreprises|structures|SMEs?|SMBs?|PME|TPE|ETI)\b[^.;]{0,20}$)"
)


_WHOLE = r"\s*(?:out\s+)?(?:of|sur)\s+(?:(?:the|its|les|ses|their|leurs)\s+)?"  # "of the 164", "sur les 240"
_PART_OF = re.compile(rf"(?i){_WHOLE}{AMOUNT}(?=\s*(?:{EMPLOYEE_WORDS}\b|[.;,)]|$))")  # the whole is people


# Whose staff a figure counts, after it: "Les 14 salariés de Kinélogue", "the 22 employees of Ledgerwisp".
_OWNER = re.compile(r"\s+(?:of|at|from|de|d['\u2019]|chez)\s*([^\W\d_][\w'\u2019-]*)")


# A headcount as documents write it: "164 employees", "employs about 150", "Our 164-strong team", "there are 164 of
# us", "headcount: 212", "taking its team past 300".
_HEADCOUNTS = tuple(
    re.compile(pattern)
    for pattern in (
        # not a customer's size: "towards 2,500 to 5,000 employee organisations"
        rf"(?i){AMOUNT}\s*\+?\s*(?:full-time\s+)?{EMPLOYEE_WORDS}\b(?![- ](?:organi[sz]ations?|compan(?:y|ies)|firms?"
        r"|businesses|customers?|clients?|employers?|accounts?|entreprises?|structures?))"
        # not a crowd or users: "when 40,000 people hit the on-sale", "2 million people use it", "16,200 workers
        # tagged", "18,600 workers wear our tag"
        r"(?!\s+(?:hit|hits|use|used|using|visit|visited|attend|attended|buy|bought|queue|queued|tap|tapped|download"
        r"|downloaded|watch|watched|log|logged|sign|signed|scan|scanned|book|booked|came|come|turn|turned|stuck"
        r"|waiting|queuing|queueing|wear|wears|wearing|carry|carries|carrying|tagged|protected|equipped))",
        rf"(?i)\b(?:employs|headcount of|team of|workforce of|staff of|crew of|[ée]quipe de)\s+"
        rf"(?:about|around|over|nearly|some|roughly)?\s*{AMOUNT}",
        rf"(?i){AMOUNT}-strong\s+(?:team|workforce|company|staff)\b",
        rf"(?i)\b(?:there are|we are|we're)\s+(?:now\s+)?(?:about|around|over|nearly|some|roughly)?\s*{AMOUNT}"
        r"\s+of us\b",
        # "Today we are 187 claims nerds", "nous sommes 72": not a distance, a time or a share
        rf"(?i)\b(?:we are|we're|nous sommes|on est)\s+(?:now\s+|today\s+|aujourd'hui\s+|d[ée]sormais\s+"
        r"|maintenant\s+)?"
        rf"(?:about|around|over|nearly|some|roughly|plus de|environ)?\s*{AMOUNT}"
        r"(?!\s*(?:%|percent|per|years?|months?|weeks?|days?|hours?|minutes?|km|miles?|ans|mois|jours?|semaines?"
        r"|heures?|minutes?|countries|pays|offices?|bureaux|cities|villes|sites?|times?|fois|x\b))",
        rf"(?i)\bheadcount\s*:\s*{AMOUNT}",
        rf"(?i)\b(?:team|workforce|headcount|staff)\s+(?:past|above|beyond)\s+{AMOUNT}",
    )
)
_REVENUES = tuple(
    re.compile(pattern)
    for pattern in (
        rf"(?i)\b{REVENUE_WORDS}\b[^.;]{{0,40}}?(?:of|de|reached|was|were|hit|to|at|totalled|totaled|atteint|atteignait"
        rf"|s['\u2019][ée]l[èe]v(?:e|ait) [àa]|raggiunto|erreichte?)\s+"
        rf"(?:about|around|over)?\s*{AMOUNT}",
        # a label: "Net sales (consolidated): 34.6 oku yen", "Tržby 2025: 138,6 mil. Kč"
        rf"(?i)\b{REVENUE_WORDS}\b[^.;:]{{0,40}}?:\s*(\d[\d,]*(?:\.\d+)?)\s*({SCALE_WORDS})\b",
        # "Annual recurring revenue, FY2026 (to 30 June) AUD 14.2 million": no verb, but a currency
        rf"(?i)\b{REVENUE_WORDS}\b[^.;]{{0,40}}?(?:[{CURRENCY_SIGNS}]|\b{CURRENCY_CODES}\s?)\s*(\d[\d,]*(?:\.\d+)?)\s*"
        rf"({SCALE_WORDS})?\b",
        rf"(?i)[{CURRENCY_SIGNS}]\s*(\d[\d,]*(?:\.\d+)?)\s*({SCALE_WORDS})?\b[^.;]{{0,20}}?"
        rf"\b{REVENUE_WORDS}\b",
        # what it grew to, read last: "ARR grew from $33.0M at June 30, 2025 to $41.5M" (the ICP judge takes it)
        rf"(?i)\b{REVENUE_WORDS}\b[^;]{{0,30}}?\bfrom\b[^;]{{0,50}}?\bto\s+(?:[{CURRENCY_SIGNS}]|\b{CURRENCY_CODES}\s?)"
        rf"\s*(\d[\d,]*(?:\.\d+)?)\s*({SCALE_WORDS})?\b",
    )
)
# "11,6 millions d'euros de chiffre d'affaires en 2025": the amount first
_AMOUNT_FIRST = re.compile(
    rf"(?i)\b(\d[\d,]*(?:\.\d+)?)\s*({SCALE_WORDS})\s+d['\u2019](?:euros|dollars)\s+de\s+{REVENUE_WORDS}\b"
)
_REVENUES = (*_REVENUES, _AMOUNT_FIRST)
# "la R&D fait 90 personnes sur les 240": the whole is the company's
_WHOLE_STAFF = re.compile(rf"(?i){AMOUNT}\s*{EMPLOYEE_WORDS}{_WHOLE}{AMOUNT}(?=\s*(?:{EMPLOYEE_WORDS}\b|[.;,)]|$))")


def figures_in(sentence: str, metric: str, someone_else: Callable[[Sequence[str]], bool] | None = None) -> list[float]:
    """The ``metric``'s figures the sentence states ("employees" or "revenue"), in order: a record's own column
    (``EMPLOYEE_FIELDS``, ``REVENUE_FIELDS``), else the amounts its words tie to the metric; a headcount followed
    by the name of someone else (``someone_else`` says whether words name another company) is theirs."""
    fields = fields_of(sentence)
    if fields:
        value = _field_number(fields, EMPLOYEE_FIELDS if metric == "employees" else REVENUE_FIELDS)
        return [] if value is None else [value]
    if metric != "employees":
        return [value for value, _ in revenue_figures(sentence, someone_else)]
    sentence = in_digits(sentence)  # not for money: alpha2digit reads "18 millions" as "18 1000000"
    found = [
        amount_value(match.group(1), match.group(2))
        for pattern in _HEADCOUNTS
        for match in pattern.finditer(sentence)
        if _the_companys(sentence, match, someone_else)
    ]
    found += [amount_value(match.group(3), match.group(4)) for match in _WHOLE_STAFF.finditer(sentence)]
    # millions of people are who it serves, not who it employs ("build the ski day of four million people")
    return [value for value in dict.fromkeys(found) if value < MAX_HEADCOUNT]  # "une équipe de 72 collaborateurs" is
    # one figure, read by two patterns


MAX_HEADCOUNT = 1_000_000


# What follows a contrast that names someone else is theirs: "Dovecrest finished 2025 with about $33.8 million in ARR,
# while Gablestone puts its own ARR at $58 million".
_CONTRAST = re.compile(r"(?i)[,;]\s*(?:while|whereas|unlike|alors que|tandis que|quand|mientras)\b")


def revenue_figures(
    sentence: str, someone_else: Callable[[Sequence[str]], bool] | None = None
) -> list[tuple[float, str | None]]:
    """The revenue figures the sentence states, in the order it states them, each with its currency's ISO code
    (None: none written); not those after a contrast that names someone else (``someone_else``)."""
    for contrast in _CONTRAST.finditer(sentence):
        if someone_else is not None and someone_else(sentence[contrast.end() :].split()[:4]):
            sentence = sentence[: contrast.start()]
            break
    found: dict[int, tuple[float, str | None]] = {}
    for pattern in _REVENUES:
        for match in pattern.finditer(sentence):
            before = sentence[: match.start()].split()
            if pattern is _AMOUNT_FIRST and someone_else is not None and someone_else(before):
                continue  # "Ambulog a réalisé 21,3 millions d'euros de chiffre d'affaires": the subject's, another's
            after = sentence[match.end() : match.end() + _CURRENCY_AFTER]
            if (word := _NEXT_WORD.match(after)) and word.group(1).casefold() in MONTHS:
                continue  # a day: "FY2026 (to 30 June) AUD 14.2 million"
            found[match.start(1)] = (
                amount_value(match.group(1), match.group(2)),
                currency_in(match.group(0)) or currency_in(after),
            )
            # the same figure in another currency: "DKK 212,4 mio. (about EUR 28.5 million)"
            if converted := _CONVERTED.match(sentence, match.end()):
                found[converted.start(1)] = (
                    amount_value(converted.group(1), converted.group(2)),
                    currency_in(converted.group(0)),
                )
    return [found[start] for start in sorted(found)]


_CURRENCY_AFTER = 12  # "11,4 millions d'euros", "212,4 mio. DKK"
_NEXT_WORD = re.compile(r"\s*([^\W\d_]+)")
_CONVERTED = re.compile(
    rf"(?i)\.?\s*\((?:about|approximately|approx\.?|around|roughly|c\.|ca\.|soit|environ|≈|~)?\s*{AMOUNT}"
)


@functools.lru_cache(maxsize=16_384)  # the same sentences are read for each facet and criterion
def in_digits(text: str) -> str:
    """The text with its numbers written in words in digits, French then English ("une équipe de septante-deux
    collaborateurs": 72, "forty-five people": 45; text2num's ``alpha2digit``, which leaves "un" and "one" alone)."""
    return str(alpha2digit(str(alpha2digit(text, "en")), "fr"))


_MONEY_BEFORE = re.compile(rf"(?:[{CURRENCY_SIGNS}]|\b{CURRENCY_CODES})\s?$")
_MONEY_FIRST = re.compile(rf"\s*(?:[{CURRENCY_SIGNS}]|\b{CURRENCY_CODES})")


def _the_companys(sentence: str, match: re.Match[str], someone_else: Callable[[Sequence[str]], bool] | None) -> bool:
    """Whether a headcount counts the company's staff: not people laid off, hired or planned, not another's or its
    customers' staff, not a part of a whole ("90 personnes sur les 240")."""
    before = sentence[max(0, match.start() - 40) : match.start()]
    if _NOT_HEADCOUNT.search(before) or _OTHERS_STAFF.search(before) or _PART_OF.match(sentence, match.end()):
        return False
    if _MONEY_BEFORE.search(before) or _MONEY_FIRST.match(match.group(0)):  # "EUR 4.1m Staff as at 30 June" (a
        return False  # table read as one line): money, not people
    owner = _OWNER.match(sentence, match.end())
    return not (owner and someone_else is not None and someone_else([owner.group(1)]))


# -- counts of things: "646 clubs", "860 communes et 41 intercommunalités", "more than 230 customers" -----------------

CUSTOMER_WORDS = frozenset("customer customers client clients clientes clienti".split())
# Not a count as it stands: a target or a plan ("aims to reach 1,000 clubs by 2027", "objectif : 1 000 communes").
_TARGET = re.compile(
    r"(?i)\b(?:target\w*|goal|aims?|aiming|plans?|planned|expects?|wants?|objecti\w*|vise\w*|ambition\w*|by 20\d\d"
    r"|d['\u2019]ici|will|pr[ée]vu\w*)\b[^.;]{0,40}$"
)
_COUNTED = re.compile(rf"(?i){AMOUNT}\s*\+?\s*(?:([^\W\d_][\w-]*)\s+)?([^\W\d_][\w-]*)")


# Words before a year: "April 2026", "since 2019", "en 2025".
_BEFORE_A_YEAR = re.compile(
    r"(?i)\b(?:in|since|from|to|until|by|of|en|depuis|de|d[eè]s|jusqu['\u2019]en|year|ann[ée]e)\s*$"
)


# The whole a part is counted in: "27 of the 38 are underground mines" counts 27 mines, not 38.
_A_PART_OF = re.compile(r"(?i)\d\s+(?:of|out of|sur|parmi)\s+(?:the|its|their|les|ses|leurs)?\s*$")


def _a_year(text: str, match: re.Match[str]) -> bool:
    """Whether a count's number is a year ("from January to April 2026, Minera ...": no 2,026 mines)."""
    digits = match.group(1).rstrip(",.")
    if not (len(digits) == 4 and digits.isdigit() and 1900 <= int(digits) <= 2099):
        return False
    before = text[: match.start(1)].rstrip()
    last = before.split()[-1].casefold() if before.split() else ""
    return match.group(1).endswith(",") or last in MONTHS or _BEFORE_A_YEAR.search(before) is not None


def counts_in(sentence: str, nouns: frozenset[str], forms: Callable[[str], frozenset[str]]) -> list[float]:
    """The counts of ``nouns`` the sentence states ("646 clubs across Australia", "860 communes", "230 happy
    customers": a number, at most one word, the noun in any of its ``forms``), not a target or a plan, nor money."""
    wanted = frozenset().union(*(forms(noun) for noun in nouns))
    text = in_digits(sentence)
    found = []
    for match in _COUNTED.finditer(text):
        words = [fold(word) for word in match.group(3, 4) if word]  # "établissements" as the criterion's nouns are
        if not any(forms(word) & wanted for word in words):
            continue
        if _MONEY_BEFORE.search(text[: match.start()]) or _MONEY_FIRST.match(match.group(0)):
            continue  # "EUR 4.1m sales"
        if _TARGET.search(text[: match.start()]) or _a_year(text, match) or _A_PART_OF.search(text[: match.start()]):
            continue
        found.append(amount_value(match.group(1), match.group(2)))
    return list(dict.fromkeys(found))
