"""ICP criteria that a sentence states or denies outright: "Offers in-person card terminals for physical shops",
"Données de santé hébergées en France chez un hébergeur certifié HDS", "The company is profitable", "Holds an ISO
27001 certification".

The criterion's key words are its words up to the first preposition that follows them ("in-person card terminals",
not "for physical shops"), without the verbs and words every such criterion has ("offers", "holds", "the company")
and without what it lists in parentheses (examples: "(resellers, MSPs)"). When fewer than two key words stand before
that preposition, its object's words count too ("lab in Lisbon", "sells through channel partners"): one generic word
("lab") would be stated by any sentence. A sentence about the company that holds every key word (a word or its
English or French stem) decides the criterion: a match, or no match when a negation stands just before them ("They
have no in-person card terminals", "ne propose pas de terminaux"). Being profitable has its opposite words too
("loss-making", "déficitaire"). Sentences that disagree decide nothing, and a criterion no sentence states stays
unknown (a certification nobody mentions is not denied). Hand-written word lists, English and French: what a
criterion's filler words are is not in any library.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from research.reports.text import fold
from research.retrieval.sparse import STEMMERS

_TOKEN = re.compile(r"[^\W_][\w'\u2019-]*")
_PREPOSITIONS = frozenset(
    """for to in at with from by on across within into over under via through outside pour en chez à au aux dans
    avec par sur depuis vers sous hors""".split()
)
_FILLER = frozenset(
    """the a an its their it they them company companies firm business is are be being has have had holds hold
    held offers offer offered provides provide sells sell supports support runs run does do has of and or
    le la les l un une des de du d est sont a ont propose proposent offre offrent dispose disposent fournit
    societe entreprise ses son sa leurs leur et ou qui mainly mostly primarily largely principalement surtout
    majoritairement""".split()
)
_NEGATIONS = frozenset(
    "no not never without none lacks lack nor isn't doesn't don't ne n pas aucun aucune sans jamais".split()
)
_NEGATION_WINDOW = 5  # a negation this many words before the key words denies them
_PROFIT = re.compile(r"(?i)\b(?:profitable|profitability|rentable|rentabilit[ée]|b[ée]n[ée]ficiaire)\b")
_LOSS = re.compile(r"(?i)\b(?:loss-making|unprofitable|loss|losses|in the red|d[ée]ficitaire|pertes?|non rentable)\b")


@dataclass(frozen=True)
class StatementRule:
    keys: tuple[str, ...]  # folded key words
    profit: bool = False  # "profitable": its opposite words deny it

    def describe(self) -> str:
        return f"stated or denied in a sentence with: {', '.join(self.keys)}"


def _words(text: str) -> list[str]:
    return [word for token in _TOKEN.findall(text) for word in fold(token).split()]


def _forms(word: str) -> set[str]:
    """A word and its English and French stems: a short criterion's language cannot be told, so both count."""
    return {word, *(stemmer.stemWord(word) for stemmer in STEMMERS.values())}


_PARENTHESES = re.compile(r"\([^)]*\)")
MIN_KEYS = 2  # fewer key words before the first preposition: its object's words count too


def statement_rule(text: str) -> StatementRule | None:
    """The criterion's key words, or None when it has none (all filler)."""
    kept: list[str] = []
    prepositions = 0
    for token in _TOKEN.findall(_PARENTHESES.sub(" ", text)):
        if token.casefold() in _PREPOSITIONS and kept:
            prepositions += 1
            if prepositions > 1 or len(kept) >= MIN_KEYS:
                break
        kept += [word for word in fold(token).split() if word not in _FILLER and word not in _PREPOSITIONS]
    keys = tuple(dict.fromkeys(w for w in kept if len(w) > 1 or w.isdigit()))
    return StatementRule(keys, bool(_PROFIT.search(text))) if keys else None


def stated(rule: StatementRule, sentence: str) -> bool | None:
    """True when ``sentence`` states the criterion, False when it denies it, None when it says neither."""
    if rule.profit and _LOSS.search(sentence):
        return False
    words = _words(sentence)
    forms = [_forms(word) for word in words]
    found = [next((i for i, held in enumerate(forms) if _forms(key) & held), None) for key in rule.keys]
    places = [place for place in found if place is not None]
    if len(places) < len(found):
        return None
    first = min(places)
    before = words[max(0, first - _NEGATION_WINDOW) : first]
    return not any(word in _NEGATIONS for word in before)


def before_keys(rule: StatementRule, sentence: str) -> str:
    """The words of ``sentence`` before the first of the rule's key words ("Fourchelune Pay s'appuie sur Banque
    Ardelis, établissement de paiement certifié PCI DSS niveau 1 et" for "ISO 27001")."""
    if rule.profit and (loss := _LOSS.search(sentence)):
        return sentence[: loss.start()]
    tokens = _TOKEN.findall(sentence)
    keys = [_forms(key) for key in rule.keys]
    for index, token in enumerate(tokens):
        if any(_forms(word) & key for word in fold(token).split() for key in keys):
            return " ".join(tokens[:index])
    return ""


def stated_in(rule: StatementRule, sentences: Sequence[str]) -> tuple[bool, int] | None:
    """Whether the sentences state (True) or deny (False) the criterion, with the first deciding sentence's
    index; None when none decides or they disagree."""
    found = [(index, verdict) for index, text in enumerate(sentences) if (verdict := stated(rule, text)) is not None]
    if not found or len({verdict for _, verdict in found}) > 1:
        return None
    index, verdict = found[0]
    return verdict, index
