"""The extractive writer (the offline default): the evidence's most relevant sentences, each its own quote.

Every sentence of the retrieved chunks is scored by relevance to the focus (the question or a facet):
the share of the focus's words it contains, weighted by how rare each word is among the candidates
(stemmed as the BM25 index stems them), its meaning's closeness to the focus (cosine of the embedder's
vectors, when one is given), a prior for the place of its document in the run's ranking, and whether
it holds what the question asks for (a date for "when"). Sentences are then chosen one at a time, each
step favouring those that continue the chain of the chosen ones (multi-hop questions: the sentence
naming the film's director, then the one about that director), near-duplicates dropped and at most
``PER_DOCUMENT`` taken from one document. A report's facets are written together (``write_facets``):
each sentence about the company is placed in the one facet it fits best before any facet chooses. Each
claim quotes itself, so the citation check holds by construction; it still runs.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import math
import re
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz

from research.protocol.report import Citation, Claim
from research.retrieval.embedders import Embedder
from research.retrieval.parsing.text import HEAD_OFFICE_LABELS
from research.retrieval.sparse import tokenize
from research.writing.amounts import CURRENCY_CODES, CURRENCY_SIGNS, money, price_line, priced
from research.writing.citations import Evidence
from research.writing.figures import figures_in
from research.writing.names import Company, roster_line, unattributed
from research.writing.structure import Row, row_about, rows_of
from research.writing.text import addressed_to_a_model, fold, names, numbers, sentences
from research.writing.writers import Brief, Draft, WriterSettings

MIN_CHARS, MAX_CHARS = 25, 600  # shorter sentences say too little alone; longer ones are rarely sentences
MIN_WORDS = 5  # a report's claim of fewer words is a label ("Product: Thistlewick Payroll.")
PER_DOCUMENT = 2  # an answer's sentences from one document
FACET_PER_DOCUMENT = 3  # a report facet's (dev fact recall 0.737 with 2, 0.768 with 3; 2026-12-04)
ROWS_PER_DOCUMENT = 5  # a price list's rows are facts of their own (dev fact recall 0.705 with 3, 0.737 with 5)
# A sentence that fits a second facet at least SECOND_HOME as well as its best is placed in both ("backed by venture
# investors and serves customers in 60 countries" is funding and customers; one home only: dev fact recall 0.798 ->
# 0.783, 2026-12-06); a facet prefers the sentences that are its own: a candidate's score times the share of its
# facet words that are this facet's, to the PURITY.
SECOND_HOME, PURITY = 0.75, 0.5
# A report states facts: a facet prefers, by this share of its score, a sentence that holds a figure or a date (any
# digit: "a listing fee of 15%", "on 2 March 2026") to one of the same words without (evaluate_reports: 0.05-0.5
# gave the same reports' key facts, docs/benchmarks.md).
SPECIFIC = 0.25
DUPLICATE_RATIO = 90.0  # rapidfuzz token_set_ratio at which two sentences say the same
WEIGHTS_WITH_MEANING = (0.45, 0.35, 0.20)  # meaning, words, ranking prior
WEIGHTS_WORDS_ONLY = (0.0, 0.70, 0.30)
# Chosen on the 100 MuSiQue and 100 HotpotQA tasks (docs/benchmarks.md): a sentence holding what the question
# asks for (a date for "when", ...) gains KIND_WEIGHT; each later pick gains HOP_WEIGHT for the chosen
# sentences' names it shares and REQUERY_WEIGHT times its words' match to the question plus those names.
KIND_WEIGHT, HOP_WEIGHT, REQUERY_WEIGHT = 0.1, 0.3, 0.3
# ... and COVER_WEIGHT times the rarity-weighted share it holds of the question's words that no chosen sentence holds
# yet (the part of the question still unanswered: "refuse to surrender Namibia" once the chain reached the
# country). 0.05 and 0.1 kept one more answer on each dataset; 0.15 and more lost answers (docs/benchmarks.md).
COVER_WEIGHT = 0.1
# A facet's question words that every sentence may hold (the sparse tokenizer keeps them): not the facet's topic.
_QUESTION_WORDS = re.compile(
    r"(?i)\b(what|which|who|whom|how|when|where|why|has|have|had|does|do|did|is|are|was|were|it|its|say|says"
    r"|about|with|of|or|and|the|a|an|in|on|for|to|by|work)\b"
)
_DATE = re.compile(
    r"\b(1[0-9]{3}|20[0-9]{2})\b|\b(January|February|March|April|May|June|July|August|September|October|November"
    r"|December)\b"
)


@dataclass(frozen=True)
class Candidate:
    text: str
    evidence: Evidence
    document_rank: int
    score: float = 0.0
    words: float = 0.0  # the share of the focus's words it holds (0: it shares none)
    previous: str = ""  # the sentence before it in its chunk ("" for the chunk's first)
    row: Row | None = None  # a claim read from a table row or a record, with the lines it quotes
    role_of: str = ""  # a quotation's attribution ("X, CEO of Y."): the company Y it gives a role in


def candidates(evidence: Sequence[Evidence], *, rows: bool = False) -> list[Candidate]:
    """Every sentence of the evidence of a claim's length, once per chunk; with ``rows`` (a report's facets) each
    table row and record too (research.writing.structure)."""
    ranks: dict[str, int] = {}
    found: list[Candidate] = []
    for item in evidence:
        rank = ranks.setdefault(item.doc_id, len(ranks))
        previous = ""
        for sentence in dict.fromkeys(sentences(item.text, item.title)):
            if rows and sentence.count("|") >= _TABLE_PIPES:
                continue  # a table's lines: its rows are read with their headers below
            if price_line(sentence) and _plan_name(previous):  # "Fleet" over "EUR 13 per sensor / month"
                found.append(Candidate(f"{previous} {sentence}", item, rank, previous=previous))
            elif _person_card(previous, sentence):  # "Reda Mernissi" over "Directeur administratif et financier"
                found.append(Candidate(f"{previous}, {sentence}", item, rank, previous=previous))
            elif MIN_CHARS <= len(sentence) <= MAX_CHARS:
                found.append(Candidate(sentence, item, rank, previous=previous))
            previous = sentence
        if rows:
            found += [Candidate(row.text, item, rank, row=row) for row in rows_of(item.text)]
            found += [Candidate(text, item, rank, role_of=of) for text, of in roles(item.text)]
    return found


PLAN_NAME_WORDS = 4
_TABLE_PIPES = 2  # "Nudgebird | NZ$25 per site per month | ...", "Add-on | Price Kaikaro Shelf | NZ$35 ..."


def _plan_name(line: str) -> bool:
    """Whether a line reads as a plan's name over its price: a few words, no figure, no closing stop."""
    words = line.split()
    return 0 < len(words) <= PLAN_NAME_WORDS and not any(c.isdigit() for c in line) and line[-1:] not in ".!?:,;"


def _person_card(line: str, role: str) -> bool:
    """Whether ``line`` is a person's name over their role on a leadership card: two to four capitalised words,
    and the two read as a line of a leadership list (``roster_line``) that the role alone is not."""
    words = line.split()
    return (
        2 <= len(words) <= 4
        and all(word[:1].isupper() for word in words)
        and not any(c.isdigit() for c in line)
        and line[-1:] not in ".!?:,;"
        and not roster_line(role)
        and roster_line(f"{line}, {role}")
    )


# A quotation's attribution names a person's role: '... ," said Imogen Catterall, co-founder and Chief Executive
# of Thistlewick.' / '..., explique Maëlys Tournebise, présidente de Praxelune.' The person and role, with the
# attribution's closing stop, is a claim of its own (a report's facet only; the quotation is the speaker's).
_NAME = r"[A-Z\u00c0-\u00de][\w'\u2019.-]*"
_ROLE = re.compile(
    rf"\b(?:said|says|added|explained|noted|according to|explique|d[ée]clare|pr[ée]cise|souligne|ajoute|indique"
    rf"|selon)\s+((?:{_NAME}\s+){{1,3}}{_NAME},\s+[^,;:\"\u201d\u00bb]{{3,80}}?\s+(?:of|at|de|chez|d['\u2019])\s*"
    rf"({_NAME}(?:\s+{_NAME}){{0,3}})\.)(?=\s|$)"
)


def roles(text: str) -> list[tuple[str, str]]:
    """The "person, role of company." spans of the text's quotation attributions (``_ROLE``), each with the
    company it names (the role is a fact about that company only)."""
    return [(match.group(1), match.group(2)) for match in _ROLE.finditer(text)]


def word_scores(focus: str, texts: Sequence[str], language: str = "en") -> list[float]:
    """For each text, the rarity-weighted share of the focus's (stemmed) words it contains, 0-1 (words as the sparse
    index of ``language`` stems them, its stop words left out)."""
    tokens = tokenize([focus, *texts], language)
    wanted = set(tokens[0])
    if not wanted or not texts:
        return [0.0] * len(texts)
    sets = [set(words) for words in tokens[1:]]
    frequency = Counter(word for words in sets for word in words & wanted)
    weight = {word: math.log(1 + len(sets) / (1 + frequency[word])) for word in wanted}
    total = sum(weight.values()) or 1.0
    return [sum(weight[word] for word in words & wanted) / total for words in sets]


def meaning_scores(embedder: Embedder | None, focus: str, texts: Sequence[str]) -> list[float]:
    if embedder is None or not texts:
        return [0.0] * len(texts)
    query = np.asarray(embedder.embed_query(focus), dtype=np.float32).reshape(-1)
    vectors = embedder.embed_documents(list(texts))
    return [float(score) for score in np.clip(vectors @ query, 0.0, 1.0)]


def topic(brief: Brief) -> str:
    """The focus without the report's company: in a report every sentence names the company, so only the
    facet's own words (price, plan, ...) say whether a sentence belongs to the facet."""
    if not brief.subject.strip():
        return f"{brief.focus} {brief.words}".strip()
    without = re.sub(rf"(?i)\b{re.escape(brief.subject.strip())}('s)?\b", " ", brief.focus)
    return f"{_QUESTION_WORDS.sub(' ', without)} {brief.words}".strip()


_CUES = re.compile(r"\(([^)]*)\)")


def facet_words(brief: Brief) -> str:
    """What places a sentence in a report's facet: the cue words its question lists in parentheses ("(price, plan,
    ...)") and its ``words``; the question's other words ("What ... has X reported") say nothing of the facet. A
    question without cues (a member's aspect) places by its ``topic``."""
    cues = " ".join(_CUES.findall(brief.focus))
    return f"{cues} {brief.words}".strip() if cues else topic(brief)


def scored(brief: Brief, embedder: Embedder | None, keep: Callable[[Candidate], bool] | None = None) -> list[Candidate]:
    """The candidates of ``brief`` (those ``keep`` accepts) by relevance, best first (ties: earlier in the
    evidence)."""
    found = [c for c in candidates(brief.evidence, rows=True) if keep is None or keep(c)]
    texts = [candidate.text for candidate in found]
    meaning_weight, word_weight, prior_weight = WEIGHTS_WITH_MEANING if embedder else WEIGHTS_WORDS_ONLY
    meaning, words = meaning_scores(embedder, brief.focus, texts), word_scores(topic(brief), texts, brief.language)
    ranked = [
        dataclasses.replace(
            c,
            score=meaning_weight * m
            + word_weight * w
            + prior_weight / (1 + c.document_rank)
            + KIND_WEIGHT * expected_kind(brief.focus, c),
            words=w,
        )
        for c, m, w in zip(found, meaning, words, strict=True)
    ]
    order = {id(candidate): index for index, candidate in enumerate(ranked)}
    return sorted(ranked, key=lambda c: (-c.score, order[id(c)]))


_FIELD = re.compile(r"\b[A-Za-z][a-z_]{1,20}: ")  # "date_seen: ", "Account: "
_EMAIL = re.compile(r"\S@\S+\.\w|\bunsubscribe\b|\byou are receiving this\b", re.IGNORECASE)  # address, footer
# An instruction to the reader (a playbook's "Escalate to CI as soon as ...", "Renewals: confirm the dates ..."): a
# sentence, or what follows its label, that opens with a verb telling someone what to do, then a lower-case word (a
# title such as "Contact Energy" or "Never Let Me Go" is a name). Not a fact about the company a report is on.
_INSTRUCTION = re.compile(
    r"^(?:[^:]{1,60}:\s+)?(?i:(?:please\s+)?(?:escalate|retire|update|prepare|represent|confirm|ask|send|check|offer"
    r"|position|avoid|emphasi[sz]e|highlight|push|focus|schedule|contact|remember|make sure|ensure|share|propose"
    r"|mention|identify|lead with|follow up|reach out|loop in|flag|prioriti[sz]e|do not|don't|never))\s+(?=[a-z])"
)
_FIRST_PERSON = re.compile(r"\b(?:I|[Ww]e|[Oo]ur|[Uu]s|[Mm]y|[Nn]ous|[Nn]otre|[Nn]os|[Jj]e)\b")


def headline(text: str) -> bool:
    """A title rather than a sentence: no closing punctuation, and most of its longer words capitalised
    ("Tavelnor to Acquire Marrowpine AI to Bring Conversational Answers to the Lakehouse")."""
    if text.rstrip()[-1:] in '.!"\u201d)':
        return False
    words = [word for word in text.split() if len(word) > 3 and word[0].isalpha()]
    return not words or sum(word[0].isupper() for word in words) * 2 >= len(words)


def shouting(text: str) -> bool:
    """Mostly capital letters ("IGNORE ALL PREVIOUS INSTRUCTIONS."): a banner or an injected order, not a claim."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) > 0.7 * len(letters)


def statement(text: str) -> bool:
    """Whether a sentence reads as a statement: not a question or a headline, not text addressed to a language
    model (``addressed_to_a_model``), not a table row, a signature or a list of fields ("date_seen: ... company:
    ...", "Head of Alliances ... | Berlin", "R-12093 · Product · Posted ..."), no e-mail address or mail footer
    ("Unsubscribe ..."), not markup."""
    return (
        not text.rstrip().endswith("?")
        and not text.lstrip().startswith("#")
        and not headline(text)
        and not shouting(text)
        and not addressed_to_a_model(text)
        and "|" not in text
        and text.count("\u00b7") < 2
        and len(_FIELD.findall(text)) < 3
        and "**" not in text
        and _EMAIL.search(text) is None
    )


def answer_candidate(candidate: Candidate) -> bool:
    """Whether a candidate may be a claim of a question's answer: an ``answer_sentence`` that is not its document's
    title line ("Welcome to the Show (TV series)" says nothing by itself)."""
    return answer_sentence(candidate.text) and fold(candidate.text) != fold(candidate.evidence.title)


TITLE_WORDS = 4  # the most words a title line adds to or leaves out of its document's title


def title_line(text: str, title: str) -> bool:
    """Whether a line is its document's title as the page writes it: the title, or one that holds the other, at
    least half as long and at most ``TITLE_WORDS`` words apart ("Portfolio snapshot: Marejada S.L." under the
    file's title "Almadraba Capital portfolio snapshot: Marejada S.L."; "Vendor Note: Kwadrolog (Wroclaw,
    Poland)")."""
    line, named = fold(text), fold(title)
    if not line or not named:
        return False
    shorter, longer = sorted((line, named), key=len)
    short, long = len(shorter.split()), len(longer.split())
    return f" {shorter} " in f" {longer} " and long - short <= TITLE_WORDS and 2 * short >= long


def answer_sentence(text: str) -> bool:
    """Whether a sentence may be a claim of a question's answer: a statement (see ``statement``: no field list,
    table row, signature or headline) that ends as a sentence does; a title run into its subtitle and dateline
    ("... is generally available: vector search ... June 10, 2026 · Seattle, WA") does not."""
    return statement(text) and text.rstrip()[-1:] in '.!"\u201d)'


def about_subject(company: Company, candidate: Candidate) -> bool:
    """Whether a sentence is a statement about the report's company (``Company.about``: it names it, speaks in
    its own document, or refers back to it), not an instruction to the reader (``_INSTRUCTION``: "Escalate to CI
    as soon as a customer mentions Tavelnor"). One more rule than the citation check's: a sentence in the first
    person ("we", "our", "nous") counts only when it opens with the company's name ("Stellique released 3.0,
    which narrows one of our differences") or when the document is the company's own (``Company.speaks_in``:
    its site, release, careers page or e-mail) and the sentence is not a quotation (a release quotes a
    customer): elsewhere "we" is the document's author, a team's notes on a competitor as often as the company
    itself."""
    if candidate.row is not None:
        return row_about(company, candidate.row, candidate.evidence)
    if candidate.role_of and not company.named_in(candidate.role_of):
        return False  # "Rhys Calloway, co-founder and CEO of Marrowpine AI." in the buyer's release
    return _about_subject(company, candidate.text, candidate.evidence, candidate.previous)


@functools.lru_cache(maxsize=65_536)  # a report's facets ask it of the same sentences, once per facet
def _about_subject(company: Company, text: str, evidence: Evidence, previous: str) -> bool:
    if not (answer_sentence(text) or price_line(text) or roster_line(text)):
        return False
    if len(text.split()) < MIN_WORDS and not priced(text):  # a plan card's "Standard $70/month minimum usage" says
        return False  # a price in four words; a short label says nothing ("Product: Thistlewick Payroll.")
    if _INSTRUCTION.match(text):
        return False
    if title_line(text, evidence.title):  # "Portfolio snapshot: Marejada Revenue Technologies S.L."
        return False
    if not company.about(text, evidence, previous):
        return False
    quoted = text.lstrip()[:1] in "\"\u201c\u2018'\u00ab"  # a quotation's "we" is its speaker's, named elsewhere
    # a quotation that opens with the name is still its speaker's words ("« Praxelune a levé 18 millions » ...")
    opens = not quoted and any(f"{fold(text)} ".startswith(f"{name} ") for name in company.names)
    return not _FIRST_PERSON.search(unattributed(text)) or opens or (company.speaks_in(evidence) and not quoted)


# Where a question asks something: its start, a sentence's start ("Tavelnor is hiring ... Whose product ...?")
# or a coordinated clause's ("..., how many, and who leads ..."), not a relative "which"/"who's" inside a clause.
_ASK = re.compile(
    r"(?:^|[.?!]\s+|,\s*and\s+|;\s*|\band\s+)"  # the question's start, a sentence's, a coordinated clause's
    r"(who|whom|whose|where|which(?! year)|when|how many|how much)\b(?!')"
)


def asked_kinds(question: str) -> set[str]:
    """What the question asks for, each of its asks: "date", "number", "name" (a compound question asks
    several: "What does X charge ..., and who leads its engineering?" asks a name too)."""
    asked = question.casefold().strip()
    kinds = set()
    if "what year" in asked or "which year" in asked:
        kinds.add("date")
    if "how many" in asked or "how much" in asked:
        kinds.add("number")
    for found in _ASK.finditer(asked):
        word = found.group(1)
        kinds.add("date" if word == "when" else "number" if word.startswith("how") else "name")
    return kinds


def specific(text: str) -> bool:
    """Whether a sentence holds a figure or a date (a digit)."""
    return any(char.isdigit() for char in text)


def expected_kind(question: str, candidate: Candidate) -> bool:
    """Whether the sentence holds something the question asks for (``asked_kinds``): a date for "when", a
    number for "how many", a name the question does not already hold for "who", "where" and "which"."""
    kinds = asked_kinds(question)
    return (
        ("date" in kinds and _DATE.search(candidate.text) is not None)
        or ("number" in kinds and specific(candidate.text))
        or ("name" in kinds and bool(names(candidate.text) - names(question)))
    )


def bridge_names(question: str, chosen: Sequence[Candidate]) -> set[str]:
    """The names the chosen sentences (and their documents' titles) add to the question's: the next hop."""
    found: set[str] = set()
    for candidate in chosen:
        found |= names(candidate.text) | set(fold(candidate.evidence.title).split())
    return found - names(question) - set(fold(question).split())


def hop_scores(question: str, chosen: Sequence[Candidate], pool: Sequence[Candidate]) -> list[float | None]:
    """How much each candidate continues the chain: names it shares with the bridge, and the question's and
    the bridge's words together (a sentence about the bridge that answers the question's relation). None for
    a candidate linked to neither the question's words nor the bridge: it is not part of the answer."""
    bridge = bridge_names(question, chosen)
    if not bridge:
        return [0.0 if c.words > 0 else None for c in pool]
    shared = [len((names(c.text) | set(fold(c.evidence.title).split())) & bridge) for c in pool]
    words = word_scores(f"{question} {' '.join(sorted(bridge))}", [c.text for c in pool])
    scale = math.sqrt(len(bridge))
    return [
        HOP_WEIGHT * n / scale + REQUERY_WEIGHT * w if n or w > 0 else None for n, w in zip(shared, words, strict=True)
    ]


class Coverage:
    """The question's (stemmed) words and how rare each is among the candidates; ``scores`` gives each candidate
    the rarity-weighted share it holds of the words no chosen sentence holds yet (0 before the first pick)."""

    def __init__(self, question: str, pool: Sequence[Candidate]) -> None:
        tokens = tokenize([question, *(c.text for c in pool)])
        self.wanted = set(tokens[0])
        # A sentence quoted by two chunks is one sentence: rarity counts distinct sentences.
        self.held = {c.text: set(words) & self.wanted for c, words in zip(pool, tokens[1:], strict=True)}
        frequency = Counter(word for words in self.held.values() for word in words)
        self.rarity = {word: math.log(1 + len(self.held) / (1 + frequency[word])) for word in self.wanted}

    def scores(self, chosen: Sequence[Candidate], pool: Sequence[Candidate]) -> list[float]:
        if not chosen:
            return [0.0] * len(pool)
        left = self.wanted.difference(*(self.held[c.text] for c in chosen))
        total = sum(self.rarity[word] for word in left)
        if not total:
            return [0.0] * len(pool)
        return [sum(self.rarity[word] for word in self.held[c.text] & left) / total for c in pool]


def _kept_as(candidate: Candidate) -> str:
    """What a document's limit counts a candidate under: its sentences, or apart from them its rows."""
    return f"{candidate.evidence.doc_id}#rows" if candidate.row is not None else candidate.evidence.doc_id


def _allowed(
    candidate: Candidate,
    chosen: Sequence[Candidate],
    per_document: Counter[str],
    *,
    sentences: int | None = PER_DOCUMENT,
) -> bool:
    """Not a near-duplicate of a chosen sentence, and within its document's limit (``sentences`` a document, or
    ``ROWS_PER_DOCUMENT`` of its rows; None: no limit)."""
    limit = ROWS_PER_DOCUMENT if candidate.row is not None else sentences
    if limit is not None and sentences is not None and per_document[_kept_as(candidate)] >= limit:
        return False
    return not any(_near_duplicate(candidate.text, other.text) for other in chosen)


def _near_duplicate(text: str, other: str) -> bool:
    """Nearly the same words and the same figures: "Starter EUR 9 per sensor / month" and "Fleet EUR 13 per
    sensor / month" are two prices, not one sentence twice."""
    return fuzz.token_set_ratio(text, other) >= DUPLICATE_RATIO and numbers(text) == numbers(other)


Bonuses = Callable[[Sequence[Candidate]], list[float | None]]  # given those chosen: each candidate's, None if out


def _facet_bonuses(pool: Sequence[Candidate]) -> Bonuses:
    """A report's facet is not a chain of hops: each sentence must hold the facet's own words."""
    return lambda chosen: [0.0 if c.words > 0 else None for c in pool]


def _question_bonuses(focus: str, pool: Sequence[Candidate]) -> Bonuses:
    """How a candidate continues the chain of those chosen (``hop_scores``; None if it does not) and
    ``COVER_WEIGHT`` times the part of the question they leave unanswered that it holds (``Coverage``)."""
    coverage = Coverage(focus, pool)

    def bonuses(chosen: Sequence[Candidate]) -> list[float | None]:
        hops, cover = hop_scores(focus, chosen, pool), coverage.scores(chosen, pool)
        return [None if hop is None else hop + COVER_WEIGHT * share for hop, share in zip(hops, cover, strict=True)]

    return bonuses


def selected(
    ranked: Sequence[Candidate], *, focus: str, max_claims: int, company: Company | None = None
) -> list[Candidate]:
    """The best candidates one at a time, each step re-scored for how it continues the chain of those chosen
    (``hop_scores``) and for the part of the question they leave unanswered (``Coverage``), skipping what is not
    a sentence of an answer (``answer_candidate``: a document's title line, a field list, a table row),
    near-duplicates and a document's beyond ``PER_DOCUMENT``. With a ``subject`` (a report's facet) only
    sentences about the subject that hold the facet's words are candidates."""
    pool = [c for c in ranked if (about_subject(company, c) if company else c.row is not None or answer_candidate(c))]
    bonuses = _facet_bonuses(pool) if company else _question_bonuses(focus, pool)
    chosen: list[Candidate] = []
    per_document: Counter[str] = Counter()
    while pool and len(chosen) < max_claims:
        extra = bonuses(chosen)
        linked = [i for i, bonus in enumerate(extra) if bonus is not None]
        order = sorted(linked, key=lambda i: (-(pool[i].score + (extra[i] or 0.0)), i))
        pick = next((i for i in order if _allowed(pool[i], chosen, per_document)), None)
        if pick is None:
            break
        chosen.append(pool.pop(pick))
        per_document[_kept_as(chosen[-1])] += 1
    return chosen


class RememberingEmbedder:
    """An embedder that embeds each sentence once: a report's facets draw on mostly the same chunks, and a
    writer lives as long as its worker process, so it reuses the vectors of the sentences it has seen lately (the
    ``remembered`` most recent: a long-lived worker's memory stays bounded)."""

    def __init__(self, inner: Embedder, *, remembered: int = 20_000) -> None:
        self.inner = inner
        self.remembered = remembered
        self.vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    @property
    def name(self) -> str:
        return self.inner.name

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.embed_queries(texts)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return self.inner.embed_documents([])
        missing = list(dict.fromkeys(text for text in texts if text not in self.vectors))
        found = dict(zip(missing, self.inner.embed_documents(missing), strict=True)) if missing else {}
        for text in dict.fromkeys(texts):
            if text in self.vectors:
                self.vectors.move_to_end(text)
                found[text] = self.vectors[text]
            else:
                self.vectors[text] = found[text]
        while len(self.vectors) > self.remembered:
            self.vectors.popitem(last=False)
        return np.stack([found[text] for text in texts])


class ExtractiveWriter:
    name = "extractive"

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder: Embedder | None = RememberingEmbedder(embedder) if embedder is not None else None

    def write(self, brief: Brief) -> Draft:
        ranked = scored(brief, self.embedder)
        company = brief.known() if brief.subject.strip() else None
        chosen = selected(ranked, focus=topic(brief), max_claims=brief.max_claims, company=company)
        return Draft(claims=tuple(_claim(c) for c in chosen), writer=self.name)

    def write_facets(self, briefs: Sequence[Brief]) -> list[Draft]:
        """A report's facets written together, each sentence placed in one facet (``placed_candidates``); the
        placed sentences with a figure that were not picked come with each draft (``Draft.unpicked``)."""
        home, held = placements(briefs, self.embedder)
        drafts = []
        for chosen, placed in zip(_picked(briefs, home, held), home, strict=True):
            texts = {c.text for c in chosen}
            unpicked = tuple(_claim(c) for c in placed if c.text not in texts and _FIGURE.search(c.text))
            drafts.append(Draft(claims=tuple(_claim(c) for c in chosen), writer=self.name, unpicked=unpicked))
        return drafts


def _claim(candidate: Candidate) -> Claim:
    """The candidate as a claim: a sentence quotes itself, a row the lines it stands on."""
    quotes = candidate.row.quotes if candidate.row is not None else (candidate.text,)
    item = candidate.evidence
    return Claim(
        text=candidate.text,
        citations=tuple(Citation(chunk_id=item.chunk_id, doc_id=item.doc_id, quote=q) for q in quotes),
    )


# "New Zealand", "New York": a place's "New" is no new product's.
_PLACE_NEW = re.compile(r"\bNew(?= [A-Z])")
# "million" and "billion" are words of money only beside an amount: "2 million documents" is no finance.
_AMOUNT_WORDS = "million millions billion billions milliard milliards"


@functools.cache
def _amount_stems(language: str) -> frozenset[str]:
    return frozenset(tokenize([_AMOUNT_WORDS], language)[0])


def facet_fits(
    text: str, vocabularies: Sequence[set[str]], language: str = "en", ignored: frozenset[str] = frozenset()
) -> list[float]:
    """How well ``text`` fits each facet: the facet's (stemmed) words it holds, each counting one over the number
    of facets that share it ("customers" is a word of both the customers and the reviews facet: half each); the
    words of amounts count only in a sentence that states money; ``ignored`` (stemmed) words not at all."""
    held = set(tokenize([_PLACE_NEW.sub("", text)], language)[0]) - ignored
    if not money(text):
        held -= _amount_stems(language)
    shared = Counter(word for vocabulary in vocabularies for word in vocabulary)
    return [sum(1 / shared[word] for word in held & vocabulary) for vocabulary in vocabularies]


def superseded(found: Sequence[Candidate]) -> set[tuple[str, str]]:
    """The table rows a newer document states again: a row of the same first column and the same first cell
    ("European consumer cards") in a document of an earlier date (an archived price list beside the current one),
    as (text, document) pairs: the same text in the newer document stays. A row of an undated document (a site's
    pricing page) neither supersedes nor is superseded: which is newer is not known, so both stand (and a
    conflict shows them together)."""
    newest: dict[str, str] = {}
    for candidate in found:
        if candidate.row is not None and not candidate.row.record and candidate.evidence.date:
            key = _row_key(candidate.row)
            newest[key] = max(newest.get(key, ""), candidate.evidence.date)
    return {
        (c.text, c.evidence.doc_id)
        for c in found
        if c.row is not None
        and not c.row.record
        and c.evidence.date
        and c.evidence.date < newest.get(_row_key(c.row), "")
    }


def _row_key(row: Row) -> str:
    """A row's first column and cell ("Payment method: European consumer cards"), folded."""
    return fold(row.text.split(";", 1)[0])


def placed_candidates(briefs: Sequence[Brief], embedder: Embedder | None) -> list[list[Candidate]]:
    """Each facet's picked sentences (``placements``, then ``_picked``)."""
    return _picked(briefs, *placements(briefs, embedder))


def placements(
    briefs: Sequence[Brief], embedder: Embedder | None
) -> tuple[list[list[Candidate]], dict[str, list[float]]]:
    """A report's facets at once: every sentence about the subject in the facets' evidence is scored for each
    facet and placed in the one whose words it holds most (``facet_fits``; ties: the best score), and also in
    the next one when that fits at least ``SECOND_HOME`` as well: each facet's placed sentences, and each
    sentence's fit to each facet. ``_picked`` then takes each facet's best."""
    rankings = []
    for brief in briefs:
        about = functools.partial(about_subject, brief.known())  # decided before the costly scoring
        # a facet's own kind of sentence needs none of its words (a sentence about a product does: admitted without,
        # they crowded Products out, dev fact recall 0.848 -> 0.843 on 2026-12-05), nor does a product card's text
        card = brief.facet == "products"
        rankings.append(
            [
                c
                for c in scored(brief, embedder, about)
                if (c.words > 0 or own_kind(brief.facet, c.text) or (card and product_card(brief.known(), c)))
                and not PERKS.search(c.text)
            ]
        )
    old = superseded([c for ranked in rankings for c in ranked])
    scores: list[dict[str, Candidate]] = []
    for ranked in rankings:
        scores.append({})
        for candidate in ranked:
            if (candidate.text, candidate.evidence.doc_id) not in old:
                scores[-1].setdefault(candidate.text, candidate)
    language = briefs[0].language if briefs else "en"
    vocabularies = [set(tokenize([facet_words(brief)], language)[0]) for brief in briefs]
    # the company's own name's words are no facet's ("Kaikaro Software Limited is headquartered ..." is no product's)
    own_name = frozenset(tokenize([" ".join(briefs[0].known().names)], language)[0]) if briefs else frozenset()
    held = {text: facet_fits(text, vocabularies, language, own_name) for by_text in scores for text in by_text}
    firsts = [
        (index, event) for facet, event in FIRST_HOMES for index, brief in enumerate(briefs) if brief.facet == facet
    ]
    # last of all, placed but not ranked first there (as its own kind, several head-office lines crowded the
    # headcount and a new CFO out of Leadership: dev fact recall 0.848 -> 0.837, 2026-12-06): where the head office
    # is, and a sentence that opens with one of the company's products, unless it gives a price
    firsts += [(index, HEAD_OFFICE.search) for index, brief in enumerate(briefs) if brief.facet == "leadership"]
    firsts += [
        (index, functools.partial(_product_sentence, brief.known()))
        for index, brief in enumerate(briefs)
        if brief.facet == "products"
    ]
    return _homes(scores, held, firsts), held


# An acquisition, a merger, a layoff or a leadership change is news first, whatever other facet's words it holds.
NEWS_EVENT = re.compile(
    r"(?i)\b(acquired|acquires|to acquire|acquisition of|merger|merged|laid off|lay(?:s|ing)? off|layoffs?"
    r"|job cuts|redundanc\w+|steps? down|stepped down|resign\w*|appointed|joins (?:\w+ )?as|rach[eè]te|rachat"
    r"|fusion|licenci\w+|nomm[ée]e?|set up|sets up|opened (?:a|an|its)|opens (?:a|an|its)|a ouvert"
    r"|ouvre (?:un|une|son|sa)|inaugur\w*|supprim\w*\s+(?:\d[\d\s]*\s+)?postes"
    r"|suppressions?\s+de\s+(?:\d[\d\s]*\s+)?postes|plan de d[ée]parts)\b"
)


# A product launched ("Kuldevagt launched the Kuldevagt Strip", "Tjalkwerf Payouts, launched in June 2026").
LAUNCH = re.compile(
    r"(?i)\b(?:launch(?:ed|es)|unveil(?:ed|s)|introduc(?:ed|es)|released|rolled out|a lanc[ée]|lanc[ée]e?s?"
    r"|d[ée]voil[ée]|is now available|generally available)\b"
    r"(?![^.;]{0,40}\b(?:partnership|partenariat|office|bureau|round)\b)"
)
# A customer won, or the count of those using it: "awarded Kuldevagt a four-year contract", "will move all 22 hotels
# to Marejada Enterprise", "More than 2,300 fleets ... run on Skelligrove", "a attribué à Leurrebois son accord-cadre".
CUSTOMER_WIN = re.compile(
    r"(?i)\b(?:awarded|a attribu[ée]|chose|has chosen|selected|a choisi|signed (?:a|an|with)|won (?:a|an|the)"
    r"|remport\w*|will (?:move|switch|migrate)|will run\b[^.;]{0,80}\bon|moves? (?:all|its)\b)"
    r"|\b\d[\d,. ]*\+?\s+(?:[\w,-]+\s+){0,10}(?:use|run(?: \w+){0,3} on|trust|rely on|utilisent"
    r"|font (?:d[ée]j[àa] )?confiance)\b"
    r"|\b(?:used by|used in|trusted by|chosen by|relied on by|in use at|utilis[ée]e?s? (?:par|dans)|choisie? par)\s+"
    r"(?:more than\s+|over\s+|tens of\s+|hundreds of\s+|plus de\s+)?(?:\d|thousands|hundreds|millions|dozens)"
    # a count of them that opens the sentence and works with it: "More than 60 insurers ... handle their claims
    # with Stimalba", "Plus de 380 agences calculent chaque semaine la paie ... avec Missival"
    r"|^(?:(?:more than|over|nearly|almost|about|around|some|plus de|pr[eè]s de|environ|quelque)\s+)?\d[\d,. ]*\+?"
    r"\s+[^\W\d_][^.;]{0,120}\b(?:with|avec)\s+[A-Z\u00c0-\u00de]\w*[.!]?$"
)
# A company founded by its founders is leadership's ("was founded in 2016 in Wrocław by Tomasz Gąsiorek and ...").
FOUNDED_BY = re.compile(
    r"(?i)\b(?:(?:co-)?founded|fond[ée]e?|started|began|set up|established|born|cr[ée]{2}e?|a commenc[ée])\b[^.;]{0,40}"
    r"\b(?:by|par|when|quand|lorsque)\b"  # "was started in Umeå in 2015 by", "was born in Bologna in 2017, when"
)
# An analyst's rating or a review score: "rates Thistlewick a Strong Performer", "4.3 out of 5", a review row's
# "stars: 4.5" / "note: 4,5".
RATING = re.compile(
    r"(?i)\b(?:rates?|rated|ranks?|ranked|names?|named|keeps?)\b[^.;]{0,60}\b(?:leader|challenger|performer"
    r"|visionary|contender|outperformer|niche player)\b|\b\d(?:[.,]\d)?\s?(?:/|out of|sur)\s?5\b"
    r"|(?:^|; )(?:rating|stars|note|note_sur_5|score|[ée]toiles): \d(?:[.,]\d)?(?:;|$)"
    # an analyst's opinion: "in our view", "our modelling suggests", "à notre avis"
    r"|\b(?:in our (?:view|opinion|assessment)|our (?:modell?ing|analysis) (?:suggests|shows)"
    r"|we (?:expect|believe|think)|à notre avis|selon nous|nous (?:pensons|jugeons|attendons))\b"
)
# What the company's product is: "Kwadrolog is a cloud WMS for distributors", "Fourchelune est une caisse cloud".
DEFINITION = re.compile(
    r"^[A-Z\u00c0-\u00de][\w-]*(?:\s+[A-Z\u00c0-\u00de][\w.-]*){0,3}\s+(?:is|est)\s+(?:(?:a|an|the|un|une|le|la)\s+|l['\u2019])?"
    r"(?:[\w-]+\s+){0,5}(?:software|platform|app|application|system|engine|tool|solution|suite|service|WMS|CRM|ERP"
    r"|logiciel|plateforme|caisse|outil|service)\b"
)
# A product that connects to another's, or a partner who resells it: "integrates with Pennant Pensions".
PARTNERING = re.compile(
    r"(?i)\b(?:integrates? with|int[ée]gr[ée]e? (?:à|avec)|s['\u2019]int[èe]gre|partnered with|partner(?:ship)? with"
    r"|a sign[ée] un partenariat|resells?|sells and supports|connects? (?:to|with)|se connecte (?:à|avec)"
    r"|(?:sells?|vend) (?:directly and |en direct et )?(?:through|via|par) (?:a|an|its|un|son) (?:network|r[ée]seau))\b"
)


# Where the company is: "Our head office is on the Kinsale Road in Cork", "Notre siège se trouve à Liège".
HEAD_OFFICE = re.compile(rf"(?i)\b(?:headquartered|{HEAD_OFFICE_LABELS})\b")


# A job ad's perks: no facet of a report on the company ("30 days of paid holiday" stood in Pricing and Funding,
# "EUR 1,500 yearly learning budget" in Pricing as a price).
PERKS = re.compile(
    r"(?i)\b(?:paid holidays?|(?:days?|weeks?) of (?:paid )?(?:holiday|vacation|annual leave)|(?:learning|training"
    r"|wellbeing|well-being|education) budget|public transport ticket|bike leas\w+|on top of (?:your |the )?salary"
    r"|parental leave|gym membership|health and dental|cong[ée]s pay[ée]s|(?:jours|semaines) de cong[ée]s?"
    r"|tickets?[- ]restaurants?|titres?[- ]restaurants?|budget (?:de )?formation)\b"
)


def _product_sentence(company: Company, text: str) -> bool:
    return company.about_a_product(text) and not priced(text)


PRODUCT_HEADING_WORDS = 6


def product_card(company: Company, candidate: Candidate) -> bool:
    """Whether a sentence is what a product card says under the product's name: it opens with one of the company's
    products, right under a heading line that does ("Ukhozi Certify" over "Ukhozi Certify fills in the CoC ...",
    "Riegel - NIS2" over "Riegel leads your team through ...")."""
    heading = candidate.previous
    return (
        0 < len(heading.split()) <= PRODUCT_HEADING_WORDS
        and heading[-1:] not in ".!?:,;"
        and company.about_a_product(heading)
        and _product_sentence(company, candidate.text)
    )


def _headcount(text: str) -> bool:
    return bool(figures_in(text, "employees"))


# A result with its amount (a revenue is ``figures_in``'s): "Résultat net 2025: -1,4 M EUR", "EBITDA FY2025: EUR -3.8m".
_RESULT = re.compile(
    r"(?i)\b(?:net (?:result|income|loss|profit)|ebitda|operating (?:loss|profit)|r[ée]sultat (?:net|d'exploitation)"
    r"|b[ée]n[ée]fice|perte nette)\b[^.;]{0,40}?"
    r"(?:[" + CURRENCY_SIGNS + r"]|\b" + CURRENCY_CODES + r"\b|\bM\s?(?:€|EUR)\b)"
)


# A funding round ("raised EUR 21 million in a Series B round", "Praxelune lève 18 millions d'euros"); with an amount.
_ROUND = re.compile(
    r"(?i)\b(?:series [a-e]|seed round|funding round|round of funding|tour de table|s[ée]rie [a-e]|lev[ée]e de fonds"
    r"|l[èe]ve|a lev[ée])\b"
)


def _financial(text: str) -> bool:
    return bool(figures_in(text, "revenue") or _RESULT.search(text) or (_ROUND.search(text) and money(text)))


# What is always one facet's first (the first that holds applies): an acquisition, a merger, a layoff or a leadership
# change is news, whatever other facet's words it holds; a launch is the products section's; a customer won or
# counted the customers section's; an integration or a reseller the partnerships'; a rating or an analyst's opinion
# the reviews'; what the product is ("Kwadrolog is a cloud WMS for distributors") the products'; a revenue
# or a result with its amount the funding and finances section's; a headcount ("Our 164-strong team works from ...")
# and the founders the leadership and hiring section's, though they name offices and customers.
FIRST_HOMES: tuple[tuple[str, Callable[[str], object]], ...] = (
    ("news", NEWS_EVENT.search),
    ("products", LAUNCH.search),
    ("customers", CUSTOMER_WIN.search),
    ("partnerships", PARTNERING.search),
    ("reviews", RATING.search),
    ("products", DEFINITION.search),
    ("funding", _financial),
    ("leadership", _headcount),
    ("leadership", FOUNDED_BY.search),
)


# What a facet's readers look for first (``own_kind``): a price in Pricing, a headcount in Leadership and hiring, an
# event in News. A sentence of its facet's own kind weighs OWN_KIND more there (0.5 and 1.0 gave the same dev fact
# recall, 0.747, 2026-12-05).
OWN_KIND = 0.5
# The company's own documents (its site, careers page, releases, mails) weigh more in the facets it is the first
# source for (dev fact recall 0.773 -> 0.781 at 1.3, 0.776 at 1.7; precision unchanged; 2026-12-06): its pages'
# sentences name it less often and rank lower by meaning than a third party's that spells its legal name out.
OWN_SOURCE = 1.3
OWN_SOURCE_FACETS = frozenset({"products", "pricing", "technology", "leadership", "customers", "partnerships"})


@functools.lru_cache(maxsize=65_536)  # asked of each sentence in every facet, and again while ranking
def own_kind(facet: str, text: str) -> bool:
    """Whether a sentence is of the facet's own kind: a price for pricing, what ``FIRST_HOMES`` gives the others."""
    return (facet == "pricing" and priced(text)) or any(marks(text) for key, marks in FIRST_HOMES if key == facet)


def _homes(
    scores: Sequence[dict[str, Candidate]],
    held: dict[str, list[float]],
    firsts: Sequence[tuple[int, Callable[[str], object]]] = (),
) -> list[list[Candidate]]:
    """Each facet's placed sentences: a sentence in the facet it fits best (ties: the better score, then the
    earlier facet), and in the next best when that fits at least ``SECOND_HOME`` as well; a sentence one of
    ``firsts`` (a facet's index, what marks its own sentences: ``FIRST_HOMES``) claims is placed there first, and in
    the facet it fits best besides."""
    home: list[list[Candidate]] = [[] for _ in scores]
    for text, fits in held.items():
        facets = sorted(
            (index for index, by_text in enumerate(scores) if text in by_text),
            key=lambda index: (-fits[index], -scores[index][text].score, index),
        )
        fit = list(fits)
        claimed = next((index for index, marks in firsts if index in facets and marks(text)), None)
        if claimed is not None:
            facets = [claimed, *(index for index in facets if index != claimed)]
            fit[claimed] = max(fit)
        elif len(scores) > 1 and not any(fits):
            continue  # no facet's words nor own kind: "Halvorix pilot on about 2 million documents" (Funding's best)
        first, *rest = facets
        home[first].append(scores[first][text])
        if rest and fit[rest[0]] > 0 and fit[rest[0]] >= SECOND_HOME * fit[first]:
            home[rest[0]].append(scores[rest[0]][text])
    return home


def _picked(
    briefs: Sequence[Brief], home: Sequence[list[Candidate]], held: dict[str, list[float]]
) -> list[list[Candidate]]:
    """Each facet's best placed sentences, a sentence's score weighed by the share of its facet words that are
    this facet's (to the ``PURITY``), raised by ``SPECIFIC`` when it holds a figure or a date and by ``OWN_SOURCE``
    when the company's own document says it (in ``OWN_SOURCE_FACETS``), near-duplicates
    of another sentence (in any facet) and a document's beyond ``FACET_PER_DOCUMENT`` skipped while other
    documents have sentences to give."""

    newest = max((e.date[:10] for brief in briefs for e in brief.evidence if e.date), default="")
    current = _days_before(newest, PRICES_CURRENT_DAYS)

    def own(candidate: Candidate, index: int) -> tuple[bool, float]:
        """Its rank in the facet: an outdated price list's rows after the prices in force, then its weight."""
        dated = (candidate.evidence.date or "")[:10]
        old = briefs[index].facet == "pricing" and bool(dated) and dated < current
        weight = _weight(candidate, briefs[index].facet, held[candidate.text], index)
        if briefs[index].facet in OWN_SOURCE_FACETS and briefs[index].known().speaks_in(candidate.evidence):
            weight *= OWN_SOURCE
        return old, -weight

    chosen: list[Candidate] = []
    result: list[list[Candidate]] = []
    for index, (brief, pool) in enumerate(zip(briefs, home, strict=True)):
        per_document: Counter[str] = Counter()
        picked: list[Candidate] = []
        ranked = sorted(pool, key=lambda c: own(c, index))
        # a document's limit holds while other documents have sentences to give; then the facet fills its places
        for limit in (FACET_PER_DOCUMENT, None):
            for candidate in ranked:
                if len(picked) == brief.max_claims:
                    break
                # the same sentence in its second facet is meant; any other near-duplicate is not
                others = [c for c in chosen if c.text != candidate.text]
                if candidate not in picked and _allowed(candidate, others, per_document, sentences=limit):
                    picked.append(candidate)
                    chosen.append(candidate)
                    per_document[_kept_as(candidate)] += 1
        result.append(picked)
    return result


def _weight(candidate: Candidate, facet: str, fits: Sequence[float], index: int) -> float:
    """A placed sentence's weight in its facet: its score, raised when it holds a figure or a date and when it is
    of the facet's own kind, else weighed by the share of its facet words that are this facet's."""
    figure = 1 + SPECIFIC * specific(candidate.text)
    if own_kind(facet, candidate.text):  # whatever other facets' words it holds
        return float(candidate.score * figure * (1 + OWN_KIND))
    share = fits[index] / sum(fits) if sum(fits) else 1.0
    return float(candidate.score * share**PURITY * figure)


_FIGURE = re.compile(r"\d")
# Prices from a document dated more than PRICES_CURRENT_DAYS before the newest document the report read come after
# the others in Pricing: an outdated price list is kept, after the prices in force.
PRICES_CURRENT_DAYS = 365


def _days_before(day: str, days: int) -> str:
    """The ISO day ``days`` before ``day`` ("" when ``day`` is no ISO date)."""
    try:
        return (datetime.date.fromisoformat(day) - datetime.timedelta(days=days)).isoformat()
    except ValueError:
        return ""


def factory(settings: WriterSettings) -> ExtractiveWriter:
    """The registry's entry; uses the embedder when the settings carry one."""
    return ExtractiveWriter(settings.embedder)
