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

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from research.retrieval.sparse import STEMMERS
from research.writing.structure import FIELD_NAME
from research.writing.text import fold, negated

_TOKEN = re.compile(r"[^\W_][\w'\u2019-]*")
_PREPOSITIONS = frozenset(
    """of for to in at with from by on across within into over under via through outside pour en chez à au aux dans
    avec par sur depuis vers sous hors de du des d""".split()
)
_FILLER = frozenset(
    """the a an its their it they them company companies firm business is are be being has have had holds hold
    held offers offer offered provides provide sells sell supports support runs run does do has of and or
    le la les l un une des de du d est sont a ont propose proposent offre offrent dispose disposent fournit
    societe entreprise ses son sa leurs leur et ou qui mainly mostly primarily largely principalement surtout
    majoritairement itself themselves meme also aussi already deja still encore today currently actuellement
    current editeur detient detiennent possede possedent valid valide valides manages manage handles handle gere
    gerent product products produit produits software logiciel logiciels platform plateforme solution""".split()
)
_NEGATION_WINDOW = 5  # a negation this many words before the key words denies them
_PROFIT = re.compile(r"(?i)\b(?:profitable|profitability|rentable|rentabilit[ée]|b[ée]n[ée]ficiaire)\b")
_PROFIT_KEY = "profitable|profitability|rentable|rentabilite|beneficiaire"
_LOSS = re.compile(r"(?i)\b(?:loss-making|unprofitable|loss|losses|in the red|d[ée]ficitaire|pertes?|non rentable)\b")


@dataclass(frozen=True)
class StatementRule:
    keys: tuple[str, ...]  # folded key words
    profit: bool = False  # "profitable": its opposite words deny it

    def describe(self) -> str:
        return f"stated or denied in a sentence with: {', '.join(key.replace('|', ' or ') for key in self.keys)}"


_NOT = re.compile(r"(?i)n['\u2019]t$")  # "don't", "isn't", "won't": a negation ("won" alone is a verb)


def _words(text: str) -> list[str]:
    return [word for token in _TOKEN.findall(text) for word in (["not"] if _NOT.search(token) else fold(token).split())]


@functools.lru_cache(maxsize=65_536)  # asked of the same words for every key of every sentence
def word_forms(word: str) -> frozenset[str]:
    """A word and its English and French stems: a short criterion's language cannot be told, so both count; a
    certificate, certified, certifiée, certification and a "cert" share the stem "certif" (the stemmers part them)."""
    forms = {word, *(stemmer.stemWord(word) for stemmer in STEMMERS.values())}
    if word.startswith("certif") or word in ("cert", "certs"):
        forms.add("certif")
    return frozenset(forms)


# A level, a version or a standard written as letters and figures together: "AL3", "NIS2", "ISO27001".
CODE = re.compile(r"\b(?=[^\W\d_]*\d)(?=\d*[^\W\d_])[^\W_]{2,8}\b")
_PARENTHESES = re.compile(r"\([^)]*\)")
MIN_KEYS = 2  # fewer key words before the first preposition: its object's words count too


# What only hedges a criterion: "Sells at least in part through resellers", "not only through its own team".
_HEDGES = re.compile(
    r"(?i)\b(?:at least|au moins|in part|en partie|partly|partially|partiellement|not only|non seulement"
    r"|(?:its|their|his|her|son|sa|leur) own|own|propres?|in hand|en poche|aujourd['\u2019]hui|lui-m[êe]me"
    r"|elle-m[êe]me)\b"
)
_ALTERNATIVE = frozenset({"or", "ou", "/"})
_POSSESSIVE = re.compile(r"\w['\u2019]s?$")


def statement_rule(text: str) -> StatementRule | None:
    """The criterion's key words, or None when it has none (all filler). Words joined by "or", "ou" or "/" are
    one key with alternatives ("resellers|distributors", "iso|iec")."""
    kept: list[str] = []
    prepositions, joined, end = 0, False, 0
    plain = _HEDGES.sub(" ", _PARENTHESES.sub(" ", text))
    for match in _TOKEN.finditer(plain):
        token, between = match.group(0), plain[end : match.start()]
        if kept and ("," in between or ";" in between or re.search(r"\.(?:\s|$)", between)):
            break  # "..., not only through its own sales team"; "... ISO/IEC 27001. Ne comptent pas : ..."
        joined = joined or "/" in between
        end = match.end()
        if token.casefold() in _ALTERNATIVE:
            joined = True
            continue
        if token.casefold() in _PREPOSITIONS and kept:
            prepositions += 1
            if prepositions > 1 or len(kept) >= MIN_KEYS:
                break
        words = _key_words(token)
        if words and joined and kept:
            kept[-1] = f"{kept[-1]}|{words[0]}"
            words = words[1:]
            joined = False
        kept += words
    keys = tuple(dict.fromkeys(kept))
    if _PROFIT.search(text):  # "Profitable (positive EBITDA) in its last reported year": profit is the criterion
        return StatementRule((_PROFIT_KEY,), profit=True)
    return StatementRule(keys) if keys else None


def _key_words(token: str) -> list[str]:
    """A criterion's token's key words: not filler, nor whose it is ("Tracks customers' kegs with RFID tags": the kegs
    are asked for, whoever's they are)."""
    if _POSSESSIVE.search(token):
        return []
    return [
        w for w in fold(token).split() if w not in _FILLER and w not in _PREPOSITIONS and (len(w) > 1 or w.isdigit())
    ]


def _place_of(key: str, forms: Sequence[frozenset[str]]) -> int | None:
    """Where the first of a key's alternatives stands among the sentence's word forms (None: nowhere)."""
    wanted = set().union(*(word_forms(word) for word in key.split("|")))
    return next((i for i, held in enumerate(forms) if wanted & held), None)


def stated(rule: StatementRule, sentence: str) -> bool | None:
    """True when ``sentence`` states the criterion, False when it denies it, None when it says neither."""
    if rule.profit and _LOSS.search(sentence):
        return False
    if rule.profit and not _PROFIT.search(sentence):
        return None  # "Les adhérents profitent de 15 % de remise" shares a stem with "profitable", not its sense
    # a record's field names ("avis_id: ... produit: Missival Paie ...") are no words of what it says; a sentence's
    # "a free trial: ..." keeps its words
    record = len(FIELD_NAME.findall(sentence)) >= 3
    words = _words(FIELD_NAME.sub(" ", sentence) if record else sentence)
    forms = [word_forms(word) for word in words]
    found = [_place_of(key, forms) for key in rule.keys]
    places = [place for place in found if place is not None]
    just_before = " ".join(words[max(0, min(places, default=0) - 4) : min(places, default=0)])
    if len(places) < len(found) or _apart(rule, sentence) or _ASKED_FOR.search(just_before):
        return None
    if _under_way(rule, sentence) or _SOUGHT.search(just_before):
        return False
    # a negation before the first key word, or before the criterion's own first key ("built only for
    # upper-secondary schools, and we have no plans for compulsory school": "compulsory" is denied), or a verb's
    # negation just after the key words ("Paie France : leur module DSN n'est pas en production")
    before = any(_negated(words, place) for place in {min(places), places[0]}) or any(
        negated(words[max(0, place - 2) : place], 2, also=("ne", "n")) for place in places
    )  # "it reads no RFID tags": a negation right before any key word
    return not (before or _denied_after(words[max(places) + 1 : max(places) + 1 + _NEGATION_WINDOW + 1]))


_AUXILIARIES = frozenset("is are was were does do did has have can will".split())
_STILL_IN_PROGRESS = re.compile(
    r"(?:is |are |est |sont )(?:still |toujours |encore )?(?:en cours|in progress|under ?way|pending|en attente)\b"
)
# What is under way is not held yet: "ISO/IEC 27001: Plateloop is still working towards it".
_UNDER_WAY = re.compile(
    r"(?i)\b(?:working (?:towards?|on getting)|preparing for|en cours d['\u2019]obtention|(?:is|are) due\b"
    r"|(?:is|are) on (?:the|its|their) way|still owes?|promised for|promis pour"
    r"|(?:is|are|est|sont|est[áa]) (?:still |encore |toujours |ainda )?(?:in|en|em) (?:a |an |un |une )?"
    r"(?:pilot|pilote|piloto|beta|b[êe]ta|test|phase de test)"
    r"|(?:is|are) expected (?:in|by|early|next|later)|attendue?s? (?:pour|en|d['\u2019]ici)"
    r"|travaill\w* [àa] (?:obtenir|l['\u2019]obtention)|(?:vise|visent) (?:la|une|l['\u2019]))\b"
)


# What a company looks for it does not have: "is also looking for its first country manager for the United States",
# "recrute son directeur commercial" (the words just before the key words, folded).
_SOUGHT = re.compile(
    r"\b(?:looking for|searching for|search for|seeks?|seeking|recruiting|hiring|vacancy for|cherche|recherche"
    r"|recrute|recrutons)\b(?: (?:a|an|the|its|their|first|new|un|une|le|la|les|l|son|sa|ses|premier|premiere|nouveau"
    r"|nouvelle))*$"
)
# ... and what someone asked it for may be held or not: "asked Bielleva for the TISAX AL3 label"
_ASKED_FOR = re.compile(
    r"\b(?:ask(?:s|ed|ing)?(?: \w+){0,2} for|request(?:s|ed|ing)?|demand\w*(?: \w+){0,2} (?:de|d))"
    r"(?: (?:a|an|the|its|their|un|une|le|la|les|l|son|sa|ses))*$"
)


# ... and so is what the words right before the key words set out on: "engagé notre démarche de certification",
# "started the process of ISO 27001 certification".
_ON_THE_WAY = re.compile(
    r"(?i)\b(?:d[ée]marche|process|processus|path|journey|parcours|road)\s+(?:de|d['\u2019]|of|to|towards?|vers)"
    r"\s*(?:la\s+|l['\u2019]\s*|the\s+|an?\s+|une?\s+)?$"
    # what money or work is to build: "lends R$ 15 million to develop its facial recognition", "pour développer"
    r"|\b(?:to (?:develop|build|finish)|para desenvolver|pour d[ée]velopper|afin de d[ée]velopper"
    r"|d[ée]veloppement d[eu]|development of)\s+"
    r"(?:(?:its|their|the|an?|sa|son|ses|la|le|une?|sua|seu|o)\s+)?(?:[\w-]+\s+){0,2}$"
)


def _under_way(rule: StatementRule, sentence: str) -> bool:
    """Whether the clause that opens with the first key word says it is still being worked towards ("ISO/IEC
    27001: Plateloop is still working towards it"). Not "in progress" or "under way", nor in another clause:
    measured on the report benchmark, an older "audit in progress" and "Meiners said Gärwerk is working towards ISO
    27001 certification" then outweighed the company's newer "has a SOC 2 Type II report"."""
    for token in _TOKEN.finditer(sentence):
        if any(
            _place_of(key, [word_forms(word) for word in fold(token.group(0)).split()]) is not None for key in rule.keys
        ):
            ends = [i for i in (sentence.find(";", token.end()), sentence.find(". ", token.end())) if i >= 0]
            if _ON_THE_WAY.search(sentence[: token.start()]):  # "notre démarche de certification ISO/IEC 27001"
                return True
            return bool(_UNDER_WAY.search(sentence[token.start() : min(ends, default=len(sentence))]))
    return False


def _denied_after(words: Sequence[str]) -> bool:
    """Whether the words open with a negated verb ("is not", "does not", "n'est pas", "ne sont plus"), or say it is
    still in progress ("Notre certification ISO/IEC 27001 est en cours")."""
    if _STILL_IN_PROGRESS.match(" ".join(words)):
        return True
    for index, word in enumerate(words):
        if word == "not" and index and words[index - 1] in _AUXILIARIES:
            return True
        if word in ("n", "ne") and any(w in ("pas", "plus", "jamais") for w in words[index + 1 : index + 3]):
            return True
    return False


def _negated(words: Sequence[str], place: int) -> bool:
    start = max(0, place - _NEGATION_WINDOW)
    return _no_more(words, start, place) or negated(words[start:place], _NEGATION_WINDOW, also=("ne", "n"))


def _no_more(words: Sequence[str], start: int, end: int) -> bool:
    """Whether French "plus de" / "plus d'" stands between ``start`` and ``end`` as "no more" ("Plus d'essai
    gratuit"), not as "more than" before a number ("plus de 6 000 restaurants")."""
    return any(
        words[i] == "plus" and words[i + 1] in ("de", "d") and not words[i + 2].isdigit()
        for i in range(start, end)
        if i + 2 < len(words)
    )


def _apart(rule: StatementRule, sentence: str) -> bool:
    """Whether a code among the key words stands in another clause than the rest: "a TISAX label at AL2, valid until
    30/09/2027; the AL3 assessment is under way" holds no AL3 label."""
    return any(CODE.fullmatch(key) for key in rule.keys) and not any(
        all(_place_of(key, [word_forms(word) for word in _words(clause)]) is not None for key in rule.keys)
        for clause in sentence.split(";")
    )


class KeySplit(NamedTuple):
    """A sentence cut at a rule's key words."""

    before: str  # the words before the first key word
    said: str  # the words before the key words have all been said
    after: str  # the words after they have all been said


def split_at_keys(rule: StatementRule, sentence: str) -> KeySplit:
    """``sentence`` cut at the rule's key words, its words read once: before the first of them ("Fourchelune Pay
    s'appuie sur Banque Ardelis, établissement de paiement certifié PCI DSS niveau 1 et" for "ISO 27001"), before
    they have all been said ("La certification : Saladier est certifié ISO" for "Certification ISO 27001"), after
    ("d'OVHcloud, leur hébergeur"). A profit rule's sentence is cut before a loss it states, both before-parts."""
    tokens = _TOKEN.findall(sentence)
    first: int | None = None
    said: int | None = None
    unsaid = set(rule.keys)
    for index, token in enumerate(tokens):
        forms = [word_forms(word) for word in fold(token).split()]
        found = {key for key in rule.keys if _place_of(key, forms) is not None}
        if found and first is None:
            first = index
        unsaid -= found
        if not unsaid:
            said = index
            break
    after = "" if said is None else " ".join(tokens[said + 1 :])
    if rule.profit and (loss := _LOSS.search(sentence)):
        return KeySplit(sentence[: loss.start()], sentence[: loss.start()], after)
    return KeySplit(
        "" if first is None else " ".join(tokens[:first]), "" if said is None else " ".join(tokens[:said]), after
    )


# A question reported, or someone who did not know: "asked whether they ...", "demandé s'ils ...", "not sure if".
_ASKED = re.compile(
    r"(?i)\b(?:ask(?:s|ed|ing)?|wonder(?:s|ed|ing)?|not sure|unsure|unclear|no idea|(?:did not|didn['\u2019]t)"
    r" know|demand[ée]e?s?|ne sai(?:s|t|vait)(?: pas)?|pas s[ûu]re?s?)\b[^.;:]{0,60}?\b(?:whether|if|si|s['\u2019])"
    r"|\b(?:did not|didn['\u2019]t) know\b|\bne savai(?:s|t) pas\b"
    # "I asked two times about ISO 27001", "j'ai demandé à propos de la norme ISO"
    r"|\b(?:asked|ask|demand[ée]e?s?)\b[^.;:]{0,30}?\b(?:about|regarding|à propos|au sujet|concernant)\b"
)


# What would or could be is not what is: "Missival ne ferait que le planning", "they could host it on Azure", "as
# good as certified".
_HYPOTHETICAL = re.compile(
    r"(?i)\b(?:as good as|almost|nearly|practically|quasiment|presque|pratiquement"
    r"|would|could|might|ferai(?:t|ent)|serai(?:t|ent)|resterai(?:t|ent)|pourrai(?:t|ent)|devrai(?:t|ent)"
    r"|aurai(?:t|ent)|irai(?:t|ent)|faudrait)\b"
)


def asks(text: str) -> bool:
    """Whether a sentence asks rather than states: a question, a question reported, or a heading."""
    stripped = text.strip()
    return stripped.endswith("?") or stripped.startswith("#") or bool(_ASKED.search(stripped))


def stated_in(
    rule: StatementRule, sentences: Sequence[str], dates: Sequence[str | None] = ()
) -> tuple[bool, int] | None:
    """Whether the sentences state (True) or deny (False) the criterion, with the first deciding sentence's
    index; None when none decides or they disagree, unless ``dates`` (each sentence's document's, ISO) say one
    of them is newer than every sentence that disagrees with it (a price page of this year over last year's
    archived one; an undated sentence is older than any dated one). A question states nothing, nor does a
    question reported ("I asked whether they offer a free trial", "le gars du stand ne savait pas"), a heading
    ("## Win/loss vs Marejada") or what would or could be ("la paie France resterait chez leur prestataire")."""
    found = [
        (index, verdict)
        for index, text in enumerate(sentences)
        if not asks(text) and not _HYPOTHETICAL.search(text) and (verdict := stated(rule, text)) is not None
    ]
    if not found:
        return None
    if len({verdict for _, verdict in found}) > 1:
        if len(dates) != len(sentences):
            return None
        dated = {verdict: max((dates[i] or "" for i, v in found if v == verdict), default="") for _, verdict in found}
        if dated[True][:10] == dated[False][:10]:
            return None
        newest = dated[True] > dated[False]
        return newest, next(i for i, v in found if v == newest and (dates[i] or "") == dated[newest])
    index, verdict = found[0]
    return verdict, index
