"""ICP criteria about where a company hosts its customers' data: "Hosts its customers' data in the EU", "Données
hébergées au Maroc", "Customer data stays in Canada". Not where it has offices (research.writing.presence) or its
head office, and not which cloud it runs on (a TechRule: "Runs on Microsoft Azure").

A criterion is read as one when it says "hosted"/"hébergé"/"data residency" and names a place after "in" ("en",
"au", ...). A sentence about the company decides it when it says where the platform or the data is hosted or runs
(hosting words, a cloud, a region or a data centre) and names a country: hosting in one of the place's countries is a
match; hosting named only elsewhere is no match (the places after the hosting words: before them a sentence names
the customers it serves). A plan ("will move to AWS Auckland in 2027", "un cloud marocain
prévu pour 2027") decides nothing: the criterion asks where the data is today.

Hand-written word lists, English and French, as in research.writing.presence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.writing.places import place_countries
from research.writing.presence import place_named

_HOSTING_CRITERION = re.compile(
    r"(?i)\b(?:host(?:s|ed|ing)?|h[ée]berg\w*|data residency|r[ée]sidence des donn[ée]es"
    r"|data (?:stays?|stored|kept|lives?)|donn[ée]es (?:stock[ée]es|conserv[ée]es|restent))\b"
)
_IN = re.compile(r"(?i)\b(?:in|inside|within|en|au|aux|dans)\s+(.{2,60})")
# What says where a platform or its data lives: hosting words, a cloud's region or a data centre.
_HOSTING_SENTENCE = re.compile(
    r"(?i)\b(?:host(?:s|ed|ing)?|h[ée]berg\w*|data (?:centres?|centers?)|datacenters?|centres? de donn[ée]es"
    r"|regions?|r[ée]gions?|runs? (?:on|in)|running (?:on|in)|tourne(?:nt)? (?:sur|chez|dans)|lives? in"
    r"|stored in|stock[ée]es? (?:en|au|dans|chez)|AWS|Azure|Google Cloud|OVHcloud|cloud)\b"
)
_PLANNED = re.compile(
    r"(?i)\b(?:will|plans?|planned|planning|intends?|by (?:end of )?20\d\d|next year|d['\u2019]ici|pr[ée]vu\w*"
    r"|pr[ée]voit|sera|seront|migrera|envisag\w+|[àa] terme|bient[ôo]t)\b"
)


@dataclass(frozen=True)
class HostingRule:
    region: str  # as the criterion names it ("Morocco", "the EU")
    countries: frozenset[str]

    def describe(self) -> str:
        return f"customer data hosted in {self.region}"

    def question(self, company: str) -> str:
        return f"Where does {company} host its customers' data (hosted, cloud region, data centre)?"


def hosting_rule(text: str) -> HostingRule | None:
    """The criterion read as a data-residency criterion, or None."""
    if not _HOSTING_CRITERION.search(text) or not (found := _IN.search(text)):
        return None
    place = place_named(found.group(1))  # a region ("the EU") or the countries named, as a presence criterion's
    return HostingRule(*place) if place else None


def hosted_where(rule: HostingRule, sentence: str) -> bool | None:
    """True when ``sentence`` says the platform or data is hosted in the rule's place today, False when it names
    hosting only elsewhere, None when it says neither (or only plans). The places named after the hosting words
    count: "Clinic data for our New Zealand customers is hosted on AWS in Sydney" is hosted in Australia."""
    cue = _HOSTING_SENTENCE.search(sentence)
    if cue is None or _PLANNED.search(sentence):
        return None
    countries = place_countries(sentence[cue.start() :])
    if not countries:
        return None
    return bool(countries & rule.countries)
