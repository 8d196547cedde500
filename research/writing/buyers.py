"""ICP criteria about who pays: businesses (B2B) or consumers (B2C) ("Clinic pays (B2B)", "The product is paid for
by the business, not by consumers", "Ce sont des organisations qui paient l'abonnement", "Éditeur SaaS B2B").

A criterion is read as one when it says B2B or B2C, or asks who pays ("paid for by", "who pays", "qui paient",
"payé par"); it asks for businesses unless it says B2C or consumers alone. A sentence about the company decides it:

- businesses pay: "Kaikaro is billed to the clinic", "C'est le syndicat ... qui paie l'abonnement", consumers never
  do ("Pet owners never pay a cent", "gratuit pour les copropriétaires"), or the company calls itself B2B ("un
  éditeur SaaS B2B", "B2B software");
- consumers pay: "sold directly to consumers", "les particuliers paient", the company calls itself B2C.

Hand-written phrase lists, English and French: who a company's buyers are is in no library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CONSUMERS = (
    r"(?:consumers?|individuals?|households?|private (?:individuals|customers)|(?:pet |home |car )?owners|patients?"
    r"|parents|families|end[- ]users|the public|particuliers|consommateurs?|grand public|copropri[ée]taires"
    r"|propri[ée]taires|familles)"
)
_BUSINESSES = r"(?:businesses|companies|organi[sz]ations|professionals|professionnels|entreprises|soci[ée]t[ée]s)"
_CRITERION = re.compile(
    r"(?i)\bB2[BC]\b|\bpaid (?:for )?by\b|\bwho pays\b|\bqui pai(?:e|ent)\b|\bpay[ée]e? par\b"
    rf"|\b(?:sold|sells?|vend\w*)(?: \w+){{0,2}}? (?:only |exclusively |uniquement )?(?:to|aux?) "
    rf"(?:{_BUSINESSES}|{_CONSUMERS})\b"
    r"|\bpaying (?:customers|clients) are\b|\bclients payants sont\b"
)
_CONSUMER_CRITERION = re.compile(rf"(?i)\bB2C\b|\bpaid (?:for )?by (?:the )?{_CONSUMERS}\b")
# consumers never pay: "Pet owners never pay a cent", "toujours gratuit pour les copropriétaires"
_CONSUMERS_FREE = re.compile(
    rf"(?i)\b{_CONSUMERS}\b[^.;]{{0,20}}\b(?:never pay|pay nothing|don't pay|do not pay|ne paient (?:jamais|rien|pas))"
    rf"|\b(?:free|gratuit\w*)\b[^.;]{{0,25}}\b(?:for|pour)\s+(?:the |les |all |tous les )?{_CONSUMERS}\b"
)
# a business pays: "billed to the clinic", "C'est le syndicat ... qui paie", "invoiced to the practice"
_BUSINESS_PAYS = re.compile(
    r"(?i)\b(?:billed|invoiced|charged|factur[ée]e?s?)\s+(?:to|à|aux?)\s+"
    rf"(?:the |each |le |la |les |l['\u2019]|chaque )?(?!{_CONSUMERS}\b)[^\W\d_]{{3,}}"
    # "is paid for by breweries and beverage distributors", "payé par les établissements"
    rf"|\b(?:paid (?:for )?by|pay[ée]e?s? par)\s+(?:the |its |their |les |la |le |l['\u2019]|des )?(?!{_CONSUMERS}\b)"
    r"[^\W\d_]{3,}"
    r"|\b(?:c['\u2019]est|ce sont)\s+(?:le|la|les|l['\u2019]|des)\s*"
    rf"(?!{_CONSUMERS}\b)[^\W\d_]+[^.;]{{0,60}}\bqui pai(?:e|ent)\b"
)
_CONSUMERS_PAY = re.compile(
    rf"(?i)\b(?:sold|sells|vend\w*)\s+(?:directly\s+|directement\s+)?(?:to|aux?)\s+(?:the |les )?{_CONSUMERS}\b"
    rf"|\b{_CONSUMERS}\s+(?:pay|paient|subscribe|s['\u2019]abonnent)\b"
    r"|\bB2C\b"
)
# it sells to businesses alone: "We sell only to businesses: parking operators, ...", "Clignolia ne vend qu'aux
# professionnels", "sold exclusively to companies"
_SELLS_TO_BUSINESSES = re.compile(
    rf"(?i)\b(?:sold|sells?|selling|vend\w*)\s+(?:only\s+|exclusively\s+|solely\s+|uniquement\s+)?(?:to|aux?)\s+"
    rf"(?:the\s+|les\s+)?{_BUSINESSES}\b|\bne vend\w*\s+qu['\u2019]\s*(?:aux?|[àa])\s+(?:des\s+)?{_BUSINESSES}\b"
    rf"|\b(?:only|exclusively) (?:for|to) {_BUSINESSES}\b"
    # sells to nobody else than (a kind of business): "sells only to lift operators, ski-pass alliances and tourism
    # boards", "ne vend qu'aux offices notariaux"
    rf"|\b(?:sells?|sold)\s+(?:only|exclusively|solely)\s+to\s+(?:the\s+)?(?!{_CONSUMERS}\b)[^\W\d_]{{3,}}"
    rf"|\bne vend\w*\s+qu['\u2019]\s*(?:aux?|[àa])\s+(?:des\s+)?(?!{_CONSUMERS}\b)[^\W\d_]{{3,}}"
)
# the company calls itself B2B: "un éditeur SaaS B2B", "a B2B software company"; not a job ad's "B2B sales experience"
_SAYS_B2B = re.compile(
    r"(?i)\bB2B\s+(?:SaaS|software|platform|company|vendor|provider|solution|logiciel|[ée]diteur|plateforme)\b"
    r"|\b(?:SaaS|software|platform|company|vendor|logiciel|[ée]diteur|plateforme)\s+(?:SaaS\s+)?B2B\b"
)


@dataclass(frozen=True)
class BuyerRule:
    business: bool = True  # the criterion asks that businesses pay (B2B); False: consumers (B2C)

    def describe(self) -> str:
        return "paid for by businesses (B2B)" if self.business else "paid for by consumers (B2C)"

    def question(self, company: str) -> str:
        return f"Who pays for {company}'s product: businesses or consumers (billed to, paid by, B2B, B2C)?"


def buyer_rule(text: str) -> BuyerRule | None:
    """The criterion read as a who-pays criterion, or None (see the module's docstring)."""
    if not _CRITERION.search(text):
        return None
    consumers = bool(_CONSUMER_CRITERION.search(text)) and not re.search(r"\bB2B\b", text)
    return BuyerRule(business=not consumers)


def businesses_pay(sentence: str) -> bool | None:
    """True when ``sentence`` says businesses pay for the company's product, False when consumers do, None when it
    says neither."""
    if any(cue.search(sentence) for cue in (_CONSUMERS_FREE, _BUSINESS_PAYS, _SAYS_B2B, _SELLS_TO_BUSINESSES)):
        return True
    if _CONSUMERS_PAY.search(sentence):
        return False
    return None
