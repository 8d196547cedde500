"""ICP criteria about how a company sells: through resellers, distributors or channel partners, or only through
its own sales team ("Sells through resellers or distributors (channel partners)", "Channel-led", "Vend au moins en
partie par un réseau de revendeurs").

A criterion is read as one when it names the channel (resellers, distributors, channel partners, VARs, MSPs,
revendeurs, distributeurs, intégrateurs) or "channel-led" / "indirect", or asks for direct sales only. A sentence
about the company decides it:

- it sells through the channel: "Près de 40 % des nouvelles installations passent par un réseau de 35 revendeurs
  agréés", "sold through 120 resellers", "its reseller programme";
- it does not: "Every deal goes through their own account managers", "no resellers", "sells direct only",
  "uniquement en direct" (checked first: "does not sell through resellers" denies).

A criterion that asks for direct sales only ("Sells direct, not through resellers") takes the opposite verdicts. A
channel the criterion names ("via l'UGAP ou des revendeurs") is stated by a sentence that names it, not denied.
Hand-written phrase lists, English and French: what a sales channel is called is in no library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.writing.text import negated_before

_CHANNEL = (
    r"(?:resell\w*|re-sell\w*|distributors?|channel(?:[- ]led| partners?| sales)|vars?|msps?|value-added resellers?"
    r"|revendeurs?|distributeurs?|int[ée]grateurs?|partenaires? (?:de distribution|revendeurs?|commerciaux)"
    r"|r[ée]seau de (?:\d+ )?(?:revendeurs?|distributeurs?|partenaires?)|indirect sales|vente indirecte)"
)
_CRITERION = re.compile(rf"(?i)\b{_CHANNEL}\b")
_DIRECT_ONLY = re.compile(
    rf"(?i)\b(?:direct (?:sales )?only|(?<!not )only (?:sells? )?direct|sells? direct\w*,? not|not through {_CHANNEL}"
    r"|uniquement en direct|vente directe uniquement|en direct uniquement|direct sales only)\b"
)
_THROUGH = re.compile(
    rf"(?i)\b(?:through|via|par|aupr[eè]s)\b[^.;]{{0,40}}\b{_CHANNEL}\b|\b(?:resold|sold|vendu|distribu[ée]e?s?)"
    rf" (?:by|through|par)\b[^.;]{{0,30}}\b{_CHANNEL}\b"
    # "est distribué en Haute-Savoie par le cabinet comptable Fidurom", "is distributed in Denmark by Skolegaarden"
    r"|\b(?:distribu[ée]e?s?|distributed|resold|revendue?s?)\b[^.;]{0,40}?\b(?:by|par)\b"
    # "Redgum Fitouts ... resell it to the clubs", "trois réseaux ... revendent Vitrinéo à leurs agences" (not
    # "Halvorix resells GPUs": what the company resells is not how it sells)
    r"|\b(?:resell|resells|revend|revendent)\s+(?:it|them|le|la|les|(?-i:[A-Z])[\w\u00e0-\u00ff-]*)\s+(?:to|à|aux)\b"
    r"|\b(?:reseller|channel|partner|distributor|revendeurs?)"
    r" (?:network|programme|program|partners|r[ée]seau)\b|\b\d[\d ,.]* (?:approved |authori[sz]ed |agr[ée]{2}s? )?"
    r"(?:resellers|distributors|revendeurs|distributeurs)\b"
)
_NOT_THROUGH = re.compile(
    rf"(?i)\b(?:no|without|sans|pas de|aucun)\b[^.;]{{0,15}}\b{_CHANNEL}\b"
    rf"|\b(?:does not|doesn't|do not|don't|never|ne)\b[^.;]{{0,30}}\b{_CHANNEL}\b"
    r"|(?:\b(?:only|exclusively|uniquement|exclusivement|entirely)\b|\b100 ?%)[^.;]{0,20}\b(?:direct|en direct)\b"
    r"|\b(?:direct sales only|sells? direct(?:ly)? only)\b"
    r"|\b(?:every|all|each|chaque|toutes? les) (?:deals?|sales?|contracts?|ventes?|contrats?|affaires?)\b[^.;]{0,40}"
    r"\b(?:own|their own|its own|propres?|en direct|direct)\b"
)


# A channel the criterion names ("Commandable via l'UGAP ou des revendeurs", "Sold through AWS Marketplace or
# resellers"): a purchasing body or a marketplace, read as a name after "via", "through", "par", "on".
_NAMED = re.compile(
    r"\b(?:via|through|par|sur|on|from|aupr[eè]s de)\s+(?:l['\u2019]\s?|the\s+|le\s+|la\s+|les\s+)?"
    r"((?-i:[A-Z][\w-]*)(?:\s+(?-i:[A-Z][\w-]*)){0,2})"
)


@dataclass(frozen=True)
class ChannelRule:
    direct: bool = False  # the criterion asks for direct sales only
    named: tuple[str, ...] = ()  # channels the criterion names ("UGAP"): a sentence that sells through one states it

    def describe(self) -> str:
        if self.direct:
            return "sells only direct"
        named = "".join(f" or through {name}" for name in self.named)
        return f"sells through resellers, distributors or channel partners{named}"

    def question(self, company: str) -> str:
        return f"Does {company} sell through resellers, distributors or channel partners, or only direct?"


def channel_rule(text: str) -> ChannelRule | None:
    """The criterion read as a sales-channel criterion, or None (see the module's docstring)."""
    direct = bool(_DIRECT_ONLY.search(text))
    if not (direct or _CRITERION.search(text)):
        return None
    named = tuple(dict.fromkeys(found.group(1) for found in _NAMED.finditer(text)))
    return ChannelRule(direct=direct, named=() if direct else named)


def through_named(rule: ChannelRule, sentence: str) -> bool:
    """Whether ``sentence`` names one of the channels the criterion names, not as one it does not go through
    ("une commande passe soit par l'UGAP, soit directement par notre équipe": it can be bought through UGAP)."""
    for name in rule.named:
        for found in re.finditer(rf"\b{re.escape(name)}\b", sentence):
            if not negated_before(sentence[: found.start()], 4, also=("ni", "plus")):
                return True
    return False


def through_channel(sentence: str) -> bool | None:
    """True when ``sentence`` says the company sells through a channel, False when it says it does not, None when
    it says neither."""
    if _NOT_THROUGH.search(sentence):
        return False
    if _THROUGH.search(sentence):
        return True
    return None
