"""ICP criteria about where a company is present, not where it is headquartered: "Has an office in Germany",
"Operates in the DACH region", "Has offices or customers outside France", "Présence hors de France (bureau ou
clients à l'étranger)".

A criterion is read as one when it names a presence (an office, a subsidiary, a team; or customers, operations,
a presence) and a place after "in" / "outside" ("en", "hors de", ...), and no headquarters. A sentence about the
company decides it when it names a presence of the kinds the criterion asks for (an office criterion is not met
by customers there) and a country:

- "in <place>": a sentence naming such a presence in one of the place's countries is a match; only an explicit
  "none there" denies it ("has no customers in the United Kingdom or Ireland"): an office nobody mentions is
  unknown, not absent, and a sentence that closes one decides nothing.
- "outside <place>": a sentence naming such a presence in another country, or abroad ("à l'étranger",
  "internationally"), is a match; one that says the presence is only in the place ("only in France",
  "uniquement en France") is no match.

Hand-written word lists, English and French: no library reads "bureau" as an office.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.writing.places import place_countries, region_named, state_named, state_of

_OFFICE = (
    r"offices?|subsidiar(?:y|ies)|branch(?:es)?|entit(?:y|ies)|teams?|hub|studio|bureaux?|filiales?|agences?"
    r"|implant\w*|[ée]tablissements?|succursales?"
)
_MARKET = (
    r"customers?|clients?|users?|operat\w+|presence|present|active|sells?|selling|serves?|serving|markets?"
    r"|pr[ée]sen\w+|activit[ée]s?|march[ée]s?|vend\w*|utilisateurs?|actifs?|international\w*"
)
_OFFICE_CUE = re.compile(rf"(?i)\b(?:{_OFFICE})\b")
# who buys there: a criterion that asks for customers (and no office) is met by customers, not by an office there
# ("Has paying customers in a Gulf country; a sales office there doesn't count")
# places whose people use the product are its customers' ("Des établissements situés hors de France utilisent
# aujourd'hui le logiciel"), not its offices
_USE = re.compile(
    r"(?i)\b(?:utilisent|utilise|use|uses|using|run|runs)\s+(?:aujourd['\u2019]hui\s+|today\s+)?(?:le|la|les|its|the|our|notre|nos|son|sa|ses)\b"
)
# a team named after the customers it serves ("au support client", "our customer success team") is no customer
_A_TEAM = re.compile(
    r"(?i)\b(?:(?:support|service|relation|succ[èe]s|exp[ée]rience)s? clients?|customer (?:support|service|success|care"
    r"|experience)|client (?:support|services?|success))\b"
)
# customers still to come: "nos futurs clients québécois seront hébergés au Canada", "pilots with two CPEs in 2027"
_TO_COME = re.compile(
    r"(?i)\b(?:futur(?:e|s|es)?|future|upcoming|prospective|seront|will be|will have|pilotes?|pilots?)\b"
)
_CUSTOMERS = re.compile(
    r"(?i)\b(?:customers?|clients?|users?|utilisateurs?|clientele|client[eè]le|serves?|serving|sells? to|selling to)\b"
)
_MARKET_CUE = re.compile(rf"(?i)\b(?:{_MARKET})\b")
_HEADQUARTERS = re.compile(
    r"(?i)\b(?:headquarter\w*|hq|head office|registered office|si[eè]ge|based|firmensitz|sitz|sede|hovedkontor)\b"
)
_OUTSIDE = re.compile(
    r"(?i)\b(?:outside(?: of)?|beyond|hors(?: de| du| d['\u2019])?|en dehors(?: de| du| d['\u2019])?)\s+(.{2,60})"
)
_IN = re.compile(r"(?i)\b(?:in|en|au|aux|dans)\s+(.{2,60})")
_ABROAD = re.compile(r"(?i)\b(?:abroad|internationally|overseas|[àa] l['\u2019][ée]tranger|hors de (?:nos|ses) fronti)")
_DENIED = re.compile(r"(?i)\b(?:no|not|never|without|closed?|closing|shut|sold off|aucune?|pas de|sans|ferm[ée]\w*)\b")
# An explicit "none there": "has no customers in the United Kingdom or Ireland", "n'a aucun client en Belgique".
_NONE_THERE = re.compile(
    rf"(?i)\b(?:no|not any|without|aucune?|pas (?:encore |toujours )?d(?:e|['\u2019])|sans)\s*(?:[\w-]+\s+){{0,2}}?"
    rf"(?:{_OFFICE}|customers?|clients?|users?|presence|operations|utilisateurs?|pr[ée]sence|activit[ée]s?)\b"
    r"[^.;]{0,20}?\b(?:in|en|au|aux|dans)\b"
)
_ONLY = re.compile(
    r"(?i)\b(?:only|solely|exclusively|uniquement|seulement|exclusivement"
    # "tous nos établissements clients sont en France", "all our customers are in France"
    r"|(?:tou(?:s|tes)|all(?: of)?) (?:nos|ses|leurs|our|its|their))\b"
)


@dataclass(frozen=True)
class PresenceRule:
    region: str  # as the criterion names it ("Germany", "DACH", "France")
    countries: frozenset[str]
    outside: bool  # "outside France": a presence in another country
    offices_only: bool  # the criterion asks for an office (not customers or sales there)
    state: str = (
        ""  # a first-level region of ``countries`` the criterion names ("en région Auvergne-Rhône-Alpes"), folded
    )
    customers_only: bool = False  # the criterion asks for customers (not an office or a team there)

    def describe(self, *, none: bool = False) -> str:
        """What the rule asks for ("an office in Germany"), or its absence (``none``: "no office in Germany")."""
        article, noun = ("a ", "presence (office, customers or operations)")
        if self.offices_only or self.customers_only:
            article, noun = ("an ", "office") if self.offices_only else ("", "customers")
        what = f"no {noun}" if none else f"{article}{noun}"
        return f"{what} {'outside' if self.outside else 'in'} {self.region}"

    def question(self, company: str) -> str:
        return f"Where does {company} have offices, subsidiaries or customers (in or outside {self.region})?"


def place_named(text: str) -> tuple[str, frozenset[str]] | None:
    """The region or country a criterion's place words name (the first one they name)."""
    if region := region_named(text):
        return region
    countries = place_countries(text)
    if countries:
        return " or ".join(sorted(c.title() for c in countries)), frozenset(countries)
    return None


def presence_rule(text: str) -> PresenceRule | None:
    """The criterion read as a presence criterion, or None (see the module's docstring)."""
    office, market = bool(_OFFICE_CUE.search(text)), bool(_MARKET_CUE.search(text))
    if not (office or market) or _HEADQUARTERS.search(text):
        return None
    found = _OUTSIDE.search(text)
    outside = found is not None
    found = found or _IN.search(text)
    place = place_named(found.group(1)) if found else None
    if _USE.search(text):
        office, market = False, True
    customers = not office and bool(_CUSTOMERS.search(text) or _USE.search(text))
    if place is None:
        state = state_named(found.group(1)) if found and not outside else None
        return PresenceRule(state[0], state[2], outside, office and not market, state[1], customers) if state else None
    return PresenceRule(place[0], place[1], outside, office and not market, customers_only=customers)


def _in_place(rule: PresenceRule, sentence: str, countries: set[str]) -> bool | None:
    """An "in <place>" rule: a presence there matches; only "none there" denies it, or one to open there later
    ("Une agence ouvrira à Lyon au printemps 2027": none there today)."""
    if not countries & rule.countries:
        return None
    wanted = rule.state.split("|")
    if rule.state and not any(state_of(sentence, country) in wanted for country in countries & rule.countries):
        return None  # a place of the country, not of the region the criterion names
    if _NONE_THERE.search(sentence) or _TO_OPEN.search(sentence):
        return False  # "Stimalba has no customers in the United Kingdom or Ireland"
    return None if _DENIED.search(sentence) else True  # "It closed its Berlin office": nothing to decide on


# An office to be opened: "will open an office in Munich in 2027", "Une agence ouvrira à Lyon", "prévoit d'ouvrir".
_TO_OPEN = re.compile(
    r"(?i)\b(?:will open|(?:plans?|planning|intends?|is to|are to) (?:to )?open|to open (?:an?|its|our) "
    r"|opening in 20\d\d|ouvrira|ouvriront|va ouvrir|vont ouvrir|pr[ée]voit d['\u2019]ouvrir|ouverture pr[ée]vue"
    r"|doit ouvrir)\b"
    # the present for what is to come: "ouvre une agence à Lyon au printemps", "opens a Munich office next year"
    r"|\b(?:opens?|ouvre|ouvrent)\b[^.;]{0,60}\b(?:au printemps|[àa] l['\u2019]automne|[àa] la rentr[ée]e|cet [ée]t[ée]"
    r"|in the (?:spring|autumn|fall|summer)|next (?:year|month|spring|autumn|summer)|l['\u2019]an prochain)"
    # money to pay for it: "L'argent doit financer ... l'ouverture d'une agence à Lyon", "to fund a Munich office"
    r"|\b(?:financer|to (?:fund|finance)|will (?:fund|finance|pay for))\b[^.;]{0,80}"
    r"\b(?:l['\u2019]ouverture|the opening|opening|open|an? (?:new )?office)\b"
)


def presence_stated(rule: PresenceRule, sentence: str) -> bool | None:
    """True when ``sentence`` names a presence the rule asks for, False when it says it is only in the rule's
    place (an "outside" rule), None when it says neither."""
    named = _OFFICE_CUE.search(sentence) or (not rule.offices_only and _MARKET_CUE.search(sentence))
    # customers to come are none today, unless the sentence says there are none now ("no customer in the Gulf yet;
    # a first pilot ... should start in February 2027")
    customers = _CUSTOMERS.search(_A_TEAM.sub(" ", sentence)) and (
        not _TO_COME.search(sentence) or _NONE_THERE.search(sentence)
    )
    if not named or (rule.customers_only and not customers):
        return None  # customers asked for: "a sales office in Dubai" says none
    countries = place_countries(sentence)
    if not rule.outside:
        return _in_place(rule, sentence, countries)
    if _DENIED.search(sentence):
        return None  # "It closed its office abroad": nothing to decide on
    if countries - rule.countries or _ABROAD.search(sentence):
        return True
    if countries and _ONLY.search(sentence):
        return False
    return None
