"""ICP criteria about where a company hosts its customers' data: "Hosts its customers' data in the EU", "Données
hébergées au Maroc", "Customer data stays in Canada". Not where it has offices (research.writing.presence) or its
head office, and not which cloud it runs on (a TechRule: "Runs on Microsoft Azure").

A criterion is read as one when it says "hosted"/"hébergé"/"data residency" and names a place after "in" ("en",
"au", ...). A sentence about the company decides it when it says where the platform or the data is hosted or runs
(hosting words, a cloud, a region or a data centre) and names a country: hosting in one of the place's countries is a
match; hosting named only elsewhere is no match (the places after the hosting words: before them a sentence names
the customers it serves). A criterion that asks for a provider of the place ("par un hébergeur français", "sovereign
cloud", "no US hyperscaler") is no match on AWS, Azure or Google Cloud, even in a region of the place. A plan
("will move to AWS Auckland in 2027", "un cloud marocain prévu pour 2027") decides nothing: the criterion asks
where the data is today.

Hand-written word lists, English and French, as in research.writing.presence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.retrieval.sparse import fold_accents
from research.writing.places import place_countries
from research.writing.presence import place_named
from research.writing.text import negated_before

_HOSTING_CRITERION = re.compile(
    r"(?i)\b(?:host(?:s|ed|ing)?|h[ée]berg\w*|data residency|r[ée]sidence des donn[ée]es"
    r"|data (?:is |are )?(?:stays?|stored|kept|lives?|held)"
    # "The data of its Canadian customers is stored in Canada"
    r"|data of [^.;]{0,40}?\b(?:is|are) (?:stored|kept|held)"
    r"|(?:keeps?|stores?|holds?) (?:its |the )?(?:customers?['\u2019]? )?data"
    r"|data ?cent(?:re|er)s?|donn[ée]es (?:sont )?(?:stock[ée]es"
    r"|conserv[ée]es|restent))\b"
)
_IN = re.compile(r"(?i)\b(?:in|inside|within|en|au|aux|dans)\s+(.{2,60})")
# What says where a platform or its data lives: hosting words, a cloud's region or a data centre.
_HOSTING_SENTENCE = re.compile(
    r"(?i)\b(?:host(?:s|ed|ing)?|h[ée]berg\w*|data (?:centres?|centers?)|datacenters?|centres? de donn[ée]es"
    r"|runs? (?:on|in)|running (?:on|in)|tourne(?:nt)? (?:sur|chez|dans)|lives? in"
    r"|stored in|stock[ée]es? (?:en|au|dans|chez)|AWS|Azure|Google Cloud|OVHcloud|cloud)\b"
)
_PLANNED = re.compile(
    r"(?i)\b(?:will|plans?|planned|planning|intends?|by (?:end of )?20\d\d|next year|d['\u2019]ici|pr[ée]vu\w*"
    r"|migration vers|courant 20\d\d|(?:veut|veulent|souhaite\w*|wants?|requires?|exige\w*) (?:des |que |its |their )?"
    r"|pr[ée]voit|sera|seront|migrera|envisag\w+|[àa] terme|bient[ôo]t)\b"
)


# A provider named by where it is from ("un hébergeur d'origine européenne", "a Swiss hosting provider"), read with
# accents folded: the place it names.
_DEMONYMS = {"francais": "France", "french": "France", "europeen": "Europe", "european": "Europe"}
_DEMONYMS |= {"suisse": "Switzerland", "swiss": "Switzerland", "belge": "Belgium", "belgian": "Belgium"}
_DEMONYMS |= {"allemand": "Germany", "german": "Germany"}
_DEMONYM_WORDS = "|".join(sorted(_DEMONYMS, key=len, reverse=True))
_PROVIDER_OF = re.compile(
    rf"(?i)\b(?:hebergeur|fournisseur|operateur)s?\s+(?:d['\u2019]origine\s+)?({_DEMONYM_WORDS})(?:n?e)?s?\b"
    rf"|\b({_DEMONYM_WORDS})\s+(?:hosting\s+|cloud\s+)?(?:provider|host)s?\b"
)
# A criterion that asks for a provider of the place, not only a data centre there: "hébergée en France par un
# hébergeur français ; un cloud américain, même dans une région française, ne compte pas", "a sovereign cloud".
_LOCAL_PROVIDER = re.compile(
    rf"(?i)\b(?:hebergeur|fournisseur|operateur|cloud)s?\s+(?:d['\u2019]origine\s+)?"
    rf"(?:{_DEMONYM_WORDS}|local|souverain)(?:n?e)?s?\b"
    rf"|\b(?:{_DEMONYM_WORDS}|local|domestic|sovereign)\s+(?:hosting\s+|cloud\s+)?(?:provider|host|cloud)s?\b"
    r"|\b(?:no|not|non|pas de|sans|aucun) (?:(?:an?|un) )?(?:US|American|americain|hyperscaler)"
    r"|\bcloud americain\b[^.;]{0,60}\bne compte pas"
    r"|\bUS (?:cloud|hyperscaler)s?\b[^.;]{0,40}\b(?:doesn't|does not|don't)"
)
# Where a platform is hosted: a company that says it runs on one of these does not run on another it does not name.
AMERICAN_CLOUDS = ("AWS", "Amazon Web Services", "Microsoft Azure", "Azure", "Google Cloud", "GCP")
CLOUDS = (
    *AMERICAN_CLOUDS,
    *("OVHcloud", "OVH", "Scaleway", "Hetzner", "IONOS", "Exoscale", "STACKIT", "Open Telekom Cloud", "IBM Cloud"),
    *("Oracle Cloud", "Alibaba Cloud", "DigitalOcean", "Infomaniak", "Outscale", "Clever Cloud"),
)
# The American clouds, named as where it runs, not denied ("we use no AWS, Microsoft Azure or Google Cloud services").
_US_CLOUD = re.compile(rf"\b(?:{'|'.join(map(re.escape, AMERICAN_CLOUDS))})\b")
# Moving off a cloud is not running on it: "moved away from AWS", "a quitté Azure".
_LEFT = ("off", "away", "left", "quitte", "quitter", "quittons", "quittent", "quittera")


# Where it was hosted before is not where it is: "Until June 2024 everything ran on our own servers in a data centre in
# Eindhoven", "auparavant hébergé chez ...".
_FORMERLY = re.compile(
    r"(?i)\b(?:until|till|up to|jusqu['\u2019]\s*(?:en|[àa]u?))\s+(?:\w+\s+)?(?:19|20)\d\d\b|\bused to\b|\bpreviously\b"
    r"|\bformerly\b|\bauparavant\b|\banciennement\b|\bno longer\b|\bne \w+ plus\b"
)


# What comes after a contrast is someone else's: "hébergée sur AWS en Irlande, quand Hestiamo a fait le choix
# d'OVHcloud à Roubaix".
_CONTRAST = re.compile(r"(?i)\b(?:quand|alors que|tandis que|contrairement|whereas|while|unlike|but|mais)\b")


@dataclass(frozen=True)
class HostingRule:
    region: str  # as the criterion names it ("Morocco", "the EU")
    countries: frozenset[str]
    local_provider: bool = False  # an American cloud's region in the place does not count

    def describe(self) -> str:
        by = " by a provider of that place (not an American cloud)" if self.local_provider else ""
        return f"customer data hosted in {self.region}{by}"

    def question(self, company: str) -> str:
        return f"Where does {company} host its customers' data (hosted, cloud region, data centre)?"


def hosting_rule(text: str) -> HostingRule | None:
    """The criterion read as a data-residency criterion, or None."""
    if not _HOSTING_CRITERION.search(text):
        return None
    plain = fold_accents(text)
    if provider := _PROVIDER_OF.search(plain):  # "chez un hébergeur d'origine européenne": a provider of that place
        place = place_named(_DEMONYMS[(provider.group(1) or provider.group(2)).casefold()])
        return HostingRule(*place, local_provider=True) if place else None
    if not (found := _IN.search(text)):
        return None
    place = place_named(found.group(1))  # a region ("the EU") or the countries named, as a presence criterion's
    return HostingRule(*place, local_provider=bool(_LOCAL_PROVIDER.search(plain))) if place else None


# A cloud's region, a region with a cloud's words around it: "the Germany West Central region", "région France
# Central"; not "En région, on travaille avec six revendeurs" (the provinces).
_CLOUD_REGION = re.compile(
    r"(?i)\b(?:regions?|r[ée]gions?)\b(?=[^.;]*\b(?:cloud|AWS|Azure|GCP|data|donn[ée]es|sauvegardes?|backups?)\b)"
    r"|\b(?:cloud|AWS|Azure|GCP|data|donn[ée]es|sauvegardes?|backups?)\b[^.;]*\b(?:regions?|r[ée]gions?)\b"
)


def on_an_american_cloud(sentence: str) -> bool:
    """Whether the sentence names AWS, Azure or Google Cloud as where something runs, not as what it does not use."""
    return any(not negated_before(sentence[: found.start()], 4, also=_LEFT) for found in _US_CLOUD.finditer(sentence))


# What a platform runs on or in: a cloud, servers, a data centre, a place ("runs in Mavibulut's Tier III data centre",
# "runs on AWS", "tourne chez OVHcloud à Roubaix"), within a few words; "638 pest-control companies run on Anaylog"
# is its customers using it.
_RUNS = re.compile(r"(?i)^(?:runs?|running|tourne(?:nt)?|lives?)\b")
_RUN_OBJECT = re.compile(
    r"(?i)^\W*(?:[\w'\u2019.-]+\W+){0,4}?(?:cloud|AWS|Amazon|Azure|Google|OVH\w*|servers?|serveurs?"
    r"|data ?cent(?:re|er)s?|datacenters?|centres? de donn[ée]es|infrastructure|h[ée]bergeur|region|r[ée]gion"
    r"|colocation|premises)\b"
)


def _hosting_cue(sentence: str) -> re.Match[str] | None:
    """The first words that say where a platform or its data lives; "runs on" only with a cloud, servers, a data
    centre or a place right after it."""
    for cue in _HOSTING_SENTENCE.finditer(sentence):
        after = sentence[cue.end() : cue.end() + 60]
        if not _RUNS.match(cue.group(0)) or _RUN_OBJECT.match(after) or place_countries(" ".join(after.split()[:4])):
            return cue
    return None


def hosted_where(rule: HostingRule, sentence: str) -> bool | None:
    """True when ``sentence`` says the platform or data is hosted in the rule's place today, False when it names
    hosting only elsewhere, None when it says neither (or only plans). The places named after the hosting words
    count: "Clinic data for our New Zealand customers is hosted on AWS in Sydney" is hosted in Australia."""
    cue = _hosting_cue(sentence) or _CLOUD_REGION.search(sentence)
    if cue is None or _PLANNED.search(sentence) or _FORMERLY.search(sentence):
        return None
    # the places of the hosting words' clause, and of a later clause only where it says where something is hosted
    # too: "...in the Asia Pacific (Singapore) region; since we left our colocation rack in Mandaue in 2024, we have
    # no servers of our own in the Philippines" is hosted in Singapore
    first, *rest = _CONTRAST.split(sentence[cue.start() :])[0].split(";")
    countries = place_countries(";".join([first, *(clause for clause in rest if _hosting_cue(clause))]))
    if not countries:
        return None
    if rule.local_provider and on_an_american_cloud(sentence):
        return False  # "hébergée sur Microsoft Azure, en région France Centre"
    return bool(countries & rule.countries)
