"""Tasks generated from a corpus, offline (no model), and verified in code: how well the agent searches *this*
corpus, in the evaluation's task format (``evaluate --format jsonl`` runs on them as on MuSiQue).

A task is a chain of 2-4 documents, each linked to the next by a name both hold (the *bridge*). Each hop's clue is a
sentence of its document: the first one's sentence names the first bridge, each next document's names the next
bridge, and the last document's names the last bridge and the *truth* (a year, a number or a name found in no other
document of the chain). The question gives the clues with every bridge replaced by a placeholder (X1, X2, ...) and the
truth by a blank, so no search of a bridge's name is possible before its document is found.

Every candidate is then verified, and dropped with its reason when it fails:

- ``quote``: the clues' and the truth's quotes are in their documents (the normalised text, or an ordered 5-word
  fuzzy match), at least two thirds of each document's quotes and every truth quote;
- ``truth``: a supporting document holds the truth;
- ``distractor``: documents that match some clue (a BM25 search of each clue, outside the chain) are the task's
  distractors; one that holds the truth makes the task ambiguous;
- ``shortcut``: one BM25 search or one dense search of the question already returns every supporting document in
  its top 10 (the task would not need the hops).

Framework-free: documents in, tasks and the figures of what was dropped out; searches through ``Searches``.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from research.evaluation.formats import CorpusDoc, Hop, Task, task_to_record
from research.evaluation.metrics import answer_found, normalise
from research.retrieval.corpus import HybridCorpus

HOPS = (2, 4)  # the default range of hops
SHORTCUT_TOP = 10
DISTRACTORS_PER_CLUE = 5
FUZZY_WORDS = 5  # the ordered fuzzy match's window
COMMON_NAME_SHARE = 0.02  # a name in more documents than this share (and 3) links too much to be a bridge
# explore: the agent found too few documents to chain; reply: a model's task was no task (both --explorer openai)
DROP_REASONS = ("explore", "reply", "quote", "truth", "distractor", "shortcut")

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“'(])|\n+")
_CONNECTOR = r"(?:of|de|du|des|la|le|von|van|der|den|and|&|the|for|y|e)"
_NAME = re.compile(rf"\b[A-Z][\w'\u2019.-]*[\w]+(?:\s+(?:{_CONNECTOR}\s+)?[A-Z][\w'\u2019.-]*[\w]+)*")
_YEAR = re.compile(r"\b(?:1[5-9]\d\d|20\d\d)\b")
_NUMBER = re.compile(r"\b\d[\d,.]*\d(?:\s?%)?|\b\d\b")
# Capitalised only because they start a sentence or are too common to name anything.
_NOT_NAMES = frozenset(
    normalise(word)
    for word in (
        "The A An In On At It Its This That These Those He She They We Our His Her Their There Here After Before "
        "During Since When While Where Which Who What How Why However Also But And Or For From With Without As By "
        "Of To If Then Than Both Each Every All Some Many Most Other Another One Two Three First Second Third Later "
        "Today Yesterday Tomorrow January February March April May June July August September October November "
        "December Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mr Mrs Ms Dr I You Le La Les Un Une Des "
        "Il Elle Nous Vous Ils Ce Cette Dans Pour Avec Sur Par"
    ).split()
)


@dataclass(frozen=True)
class Quote:
    doc_id: str
    text: str


@dataclass(frozen=True)
class GeneratedTask:
    task: Task
    clues: tuple[Quote, ...]  # one per hop, in order
    truth_quotes: tuple[Quote, ...]
    bridges: tuple[str, ...]
    distractor_doc_ids: tuple[str, ...] = ()

    def record(self) -> dict[str, Any]:
        """The evaluation's task record, with the clues, the truth's quotes and the distractors beside it."""
        return {
            **task_to_record(self.task),
            "hop_count": len(self.clues),
            "clues": [{"doc_id": quote.doc_id, "quote": quote.text} for quote in self.clues],
            "truth_quotes": [{"doc_id": quote.doc_id, "quote": quote.text} for quote in self.truth_quotes],
            "distractor_doc_ids": list(self.distractor_doc_ids),
        }


class Searches(Protocol):
    """The two single searches the checks make: each returns doc ids, best first."""

    def bm25(self, query: str, n: int) -> list[str]: ...

    def dense(self, query: str, n: int) -> list[str]: ...


@dataclass
class Generation:
    """What ``generate`` made: the verified tasks, the candidates it tried and why each dropped one went."""

    tasks: list[GeneratedTask] = field(default_factory=list)
    candidates: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        tried = self.candidates or 1
        by_hops = Counter(len(task.clues) for task in self.tasks)
        return {
            "tasks": len(self.tasks),
            "candidates": self.candidates,
            "dropped": {reason: self.dropped.get(reason, 0) for reason in DROP_REASONS},
            "dropped_share": {reason: round(self.dropped.get(reason, 0) / tried, 3) for reason in DROP_REASONS},
            "tasks_by_hops": {str(hops): by_hops[hops] for hops in sorted(by_hops)},
            "seconds": round(self.seconds, 2),
            "seconds_per_task": round(self.seconds / len(self.tasks), 3) if self.tasks else None,
        }


# --- the text: sentences, names, truths -------------------------------------------------------------------------
_MARKUP = re.compile(r"^\s*(?:[-*+>#|]+\s+|\d+[.)]\s+)+|\*\*|__|`")


def sentences(text: str) -> list[str]:
    """The text's sentences of 6 to 60 words (shorter ones say too little to be a clue; longer ones are lists),
    without Markdown's list, heading and emphasis marks."""
    found = (" ".join(_MARKUP.sub("", part).split()) for part in _SENTENCE_END.split(text))
    return [sentence for sentence in found if 6 <= len(sentence.split()) <= 60]


def names(sentence: str) -> list[str]:
    """Capitalised phrases that can name something: common words that are capitalised only because they start a
    sentence ("The", "However") are cut off, and so are trailing connectors."""
    found = []
    for match in _NAME.finditer(sentence):
        words = re.sub(r"['\u2019]s$", "", match.group(0)).strip(".-'\u2019").split()
        while words and normalise(words[0]) in _NOT_NAMES:
            words = words[1:]
        while words and re.fullmatch(_CONNECTOR, words[-1]):
            words = words[:-1]
        name = " ".join(words)
        key = normalise(name)
        if len(name) >= 4 and key and key not in _NOT_NAMES:
            found.append(name)
    return list(dict.fromkeys(found))


def truths(sentence: str, avoid: Iterable[str]) -> list[str]:
    """What the last hop may ask for in ``sentence``: years, numbers, then names; never one of ``avoid``, one that
    holds one of them ("Republic of India" beside "India") or one they hold (masking would leave part of it)."""
    avoided = [f" {normalise(name)} " for name in avoid]
    found = [
        *_YEAR.findall(sentence),
        *(n for n in _NUMBER.findall(sentence) if not _YEAR.fullmatch(n)),
        *names(sentence),
    ]
    kept = []
    for item in dict.fromkeys(found):
        padded = f" {normalise(item)} "
        if padded.strip() and not any(name in padded or padded in name for name in avoided):
            kept.append(item)
    return kept


def _contains(text: str, phrase: str) -> bool:
    return f" {normalise(phrase)} " in f" {normalise(text)} "


def quote_in(quote: str, text: str) -> bool:
    """The quote is in the text: its normalised words in a row, or (a quote of 5 words or more) at least two thirds
    of its 5-word pieces found in the text in the quote's order (a word changed, added or dropped costs one piece)."""
    words, haystack = normalise(quote).split(), f" {normalise(text)} "
    if not words:
        return False
    if f" {' '.join(words)} " in haystack:
        return True
    if len(words) < FUZZY_WORDS:
        return False
    pieces = [words[i : i + FUZZY_WORDS] for i in range(0, len(words), FUZZY_WORDS)]
    if len(pieces) > 1 and len(pieces[-1]) < 3:  # a short tail matches too easily alone
        pieces[-2:] = [pieces[-2] + pieces[-1]]
    position, found = 0, 0
    for piece in pieces:
        at = haystack.find(f" {' '.join(piece)} ", position)
        if at >= 0:
            found, position = found + 1, at + 1
    return found * 3 >= len(pieces) * 2


def _masked(sentence: str, replacements: Mapping[str, str]) -> str:
    for phrase, mark in sorted(replacements.items(), key=lambda item: -len(item[0])):
        sentence = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", mark, sentence, flags=re.IGNORECASE)
    return sentence


# --- chains --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Doc:
    doc: CorpusDoc
    sentences: tuple[str, ...]
    names: frozenset[str]  # normalised


class _Corpus:
    """The documents' sentences and names, and which documents hold each name."""

    def __init__(self, docs: Sequence[CorpusDoc]) -> None:
        self.docs = {
            doc.doc_id: _Doc(
                doc, tuple(found := sentences(doc.text)), frozenset(normalise(n) for s in found for n in names(s))
            )
            for doc in docs
        }
        holders: dict[str, set[str]] = {}
        for doc_id, parsed in self.docs.items():
            for name in parsed.names:
                holders.setdefault(name, set()).add(doc_id)
        most = max(3, int(len(docs) * COMMON_NAME_SHARE))
        # A one-word "name" the corpus also writes in lower case is a common word at a sentence's start ("More").
        lower = {word for doc in docs for word in re.findall(r"\b[a-z][\w'-]*", doc.text)}
        self.holders = {
            name: ids
            for name, ids in holders.items()
            if 2 <= len(ids) <= most and not (" " not in name and name in lower)
        }
        self.lower = lower

    def links(self, doc_id: str, used: set[str], old_names: set[str]) -> list[tuple[str, str, str]]:
        """(sentence, bridge name as written, next doc id) for each sentence of the document naming a bridge to a
        document not in the chain, whose name no earlier document of the chain holds."""
        found = []
        for sentence in self.docs[doc_id].sentences:
            for name in names(sentence):
                key = normalise(name)
                if key in old_names or key not in self.holders:
                    continue
                for other in sorted(self.holders[key] - used - {doc_id}):
                    found.append((sentence, name, other))
        return found


def _chain(corpus: _Corpus, start: str, hops: int, rng: random.Random) -> GeneratedTask | None:
    """One candidate task of ``hops`` documents from ``start``, or None when the walk finds no way on."""
    chain: list[str] = [start]
    clues: list[Quote] = []
    bridges: list[str] = []
    for _ in range(hops - 1):
        links = corpus.links(chain[-1], set(chain), {normalise(b) for b in bridges})
        # the bridge must be new to the chain: no earlier document may name it (else the hop could be skipped)
        links = [link for link in links if all(normalise(link[1]) not in corpus.docs[d].names for d in chain[:-1])]
        if not links:
            return None
        sentence, bridge, following = rng.choice(links)
        clues.append(Quote(chain[-1], sentence))
        bridges.append(bridge)
        chain.append(following)
    last = corpus.docs[chain[-1]]
    others = [corpus.docs[doc_id].doc.text for doc_id in chain[:-1]]
    endings = [
        (sentence, truth)
        for sentence in last.sentences
        if _contains(sentence, bridges[-1])
        for truth in truths(sentence, bridges)
        if not any(_contains(text, truth) for text in others)
        and not (" " not in truth and normalise(truth) in corpus.lower)
    ]
    if not endings:
        return None
    sentence, truth = rng.choice(endings)
    clues.append(Quote(chain[-1], sentence))
    candidate = _task(clues, bridges, truth)
    steps = candidate.task.hops or ()
    return candidate if steps and "___" in steps[-1].question else None  # the truth masked, or no task


def _task(clues: list[Quote], bridges: list[str], truth: str) -> GeneratedTask:
    marks = {bridge: f"X{number}" for number, bridge in enumerate(bridges, start=1)}
    masked = [_masked(quote.text, marks) for quote in clues]
    masked[-1] = _masked(masked[-1], {truth: "___"})
    said = " ".join(f'({number}) "{text}"' for number, text in enumerate(masked, start=1))
    question = (
        f"These {len(clues)} passages come from {len(clues)} documents, each leading to the next through the thing "
        f"marked X1, X2 and so on: {said} What is the ___ in the last passage?"
    )
    answers = [*bridges, truth]
    hops = tuple(Hop(text, answer, quote.doc_id) for text, answer, quote in zip(masked, answers, clues, strict=True))
    task = Task(
        id="",
        question=question,
        answer=truth,
        supporting_doc_ids=tuple(quote.doc_id for quote in clues),
        hops=hops,
    )
    return GeneratedTask(task, tuple(clues), (clues[-1],), tuple(bridges))


# --- verification --------------------------------------------------------------------------------------------------
def quotes_problem(candidate: GeneratedTask, texts: Mapping[str, str]) -> bool:
    """Whether the quotes fail: fewer than two thirds of a document's quotes found, or any truth quote missing."""
    by_doc: dict[str, list[bool]] = {}
    for quote in candidate.clues:
        by_doc.setdefault(quote.doc_id, []).append(quote_in(quote.text, texts.get(quote.doc_id, "")))
    if any(sum(found) * 3 < len(found) * 2 for found in by_doc.values()):
        return True
    return not all(quote_in(quote.text, texts.get(quote.doc_id, "")) for quote in candidate.truth_quotes)


def verify(
    candidate: GeneratedTask, texts: Mapping[str, str], searches: Searches
) -> tuple[GeneratedTask | None, str | None]:
    """The candidate with its distractors when it passes every check, else None and the first reason it fails."""
    task = candidate.task
    if quotes_problem(candidate, texts):
        return None, "quote"
    if not any(answer_found([task.answer], [texts.get(doc_id, "")]) for doc_id in task.supporting_doc_ids):
        return None, "truth"
    supporting = set(task.supporting_doc_ids)
    distractors = list(
        dict.fromkeys(
            doc_id
            for hop in task.hops or ()
            for doc_id in searches.bm25(hop.question, DISTRACTORS_PER_CLUE + len(supporting))
            if doc_id not in supporting
        )
    )
    if any(answer_found([task.answer], [texts.get(doc_id, "")]) for doc_id in distractors):
        return None, "distractor"
    for search in (searches.bm25, searches.dense):
        if supporting <= set(search(task.question, SHORTCUT_TOP)):
            return None, "shortcut"
    return GeneratedTask(task, candidate.clues, candidate.truth_quotes, candidate.bridges, tuple(distractors)), None


# --- the whole generation ------------------------------------------------------------------------------------------
# Another way to make a candidate from a start document and the hops wanted (research/evaluation/exploration.py):
# the candidate, or the reason it is none.
Proposer = Callable[[str, tuple[int, int]], "GeneratedTask | str | None"]


def generate(
    docs: Sequence[CorpusDoc],
    searches: Searches,
    *,
    count: int,
    hops: tuple[int, int] = HOPS,
    seed: int = 0,
    attempts: int | None = None,
    progress: Callable[[int, int], None] = lambda made, tried: None,
    propose: Proposer | None = None,
) -> Generation:
    """Up to ``count`` verified tasks, walks of each hop count of ``hops`` (inclusive) in turn, each from a start
    document drawn with ``seed``; at most ``attempts`` walks (default 100 per task asked: most candidates fail a
    check, the shortcut check above all)."""
    started = time.perf_counter()
    rng = random.Random(seed)  # noqa: S311 - reproducible task drawing, not a secret
    corpus = _Corpus(docs)
    texts = {doc.doc_id: doc.text for doc in docs}
    starts = [doc_id for doc_id in sorted(corpus.docs) if corpus.docs[doc_id].names]
    result = Generation()
    limit = attempts if attempts is not None else 100 * count
    hop_counts = list(range(hops[0], hops[1] + 1))
    seen_questions: set[str] = set()
    tries = 0
    while starts and len(result.tasks) < count and tries < limit:
        tries += 1
        wanted = hop_counts[tries % len(hop_counts)]  # by attempt: a corpus without long chains still yields
        start = rng.choice(starts)
        candidate = _chain(corpus, start, wanted, rng) if propose is None else propose(start, (wanted, wanted))
        if candidate is None or (not isinstance(candidate, str) and candidate.task.question in seen_questions):
            continue
        if not isinstance(candidate, str):
            seen_questions.add(candidate.task.question)
        _judged(result, candidate, texts, searches)
        progress(len(result.tasks), result.candidates)
    result.seconds = time.perf_counter() - started
    return result


def _judged(result: Generation, candidate: GeneratedTask | str, texts: Mapping[str, str], searches: Searches) -> None:
    """Count the candidate and keep it (numbered) when it passes every check, else count why it went (a string: a
    model's reply that was no task)."""
    result.candidates += 1
    verified, reason = (None, candidate) if isinstance(candidate, str) else verify(candidate, texts, searches)
    if verified is None:
        result.dropped[reason or "unknown"] += 1
        return
    task = verified.task
    named = Task(
        f"gen-{len(result.tasks) + 1:04d}-{len(verified.clues)}hop",
        task.question,
        task.answer,
        task.answer_aliases,
        task.supporting_doc_ids,
        task.hops,
    )
    result.tasks.append(
        GeneratedTask(named, verified.clues, verified.truth_quotes, verified.bridges, verified.distractor_doc_ids)
    )


class IndexSearches:
    """``Searches`` over a hybrid index: its BM25 part and its dense part, each alone."""

    def __init__(self, index: HybridCorpus) -> None:
        self.index = index

    def bm25(self, query: str, n: int) -> list[str]:
        hits = self.index.sparse.query(query, n=n * 4, exclude=frozenset())
        return _documents((chunk_id for chunk_id, _ in hits), n)

    def dense(self, query: str, n: int) -> list[str]:
        hits = self.index.dense.query(self.index.embedder.embed_query(query), n=n * 4, exclude=frozenset())
        return _documents(hits, n)


def _documents(chunk_ids: Iterable[str], n: int) -> list[str]:
    """The first ``n`` distinct documents of chunk ids (``<doc id>#<index>``), in order."""
    return list(dict.fromkeys(chunk_id.rpartition("#")[0] for chunk_id in chunk_ids))[:n]
