"""The offline heuristic backend: a deterministic, honest baseline that needs no model weights.

Turn 1 decomposes the question into sub-queries (the question, its clauses, quoted phrases as
regular expressions, capitalised entities). Later turns measure each seen chunk's relevance as the
share of the question's content terms it contains, prune chunks below a threshold, and issue
bridge queries built from salient entities of the most relevant chunks (the multi-hop step). It
completes when a turn adds no new relevant chunk, after ``max_hops`` follow-up turns, or when the
budget passes the soft threshold. Rollouts differ by ``variant``, which rotates the sub-queries.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from research.harness.messages import Message, ModelTurn, ToolCall, ToolSpec
from research.harness.ports import DeltaCallback
from research.protocol import wire

STOPWORDS = frozenset(
    "a an and are as at be been by did do does for from had has have how in into is it its of on or that the their "
    "them they this to was were what when where which who whom whose why will with would than then there these those "
    "since about after before between during our we you your i me my he she his her not no yes can could should may "
    "more most much many any each other some such only own same so too very just also over under again once".split()
)  # fmt: skip
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'&.-]*[A-Za-z0-9]|[A-Za-z0-9]")
_ENTITY = re.compile(r"\b(?:[A-Z][\w&'-]*(?:[ \t]+(?:of|de|von|the|and|&)?[ \t]*[A-Z][\w&'-]*)*|\d{4})\b")
_QUOTED = re.compile(r"[\"“]([^\"”]{3,80})[\"”]")
BRIDGE_RELEVANCE = 0.5
QUESTION_WEIGHT, BRIDGE_WEIGHT, SUBQUERY_WEIGHT = 2.0, 1.0, 0.5  # which search found a chunk (final_ranking)
FIRST_HOP_HEAD = 8
RELEVANCE_WEIGHT = 0.001
_USAGE = re.compile(r"\[Token usage: ([\d,]+)/([\d,]+)\]")


def terms(text: str) -> set[str]:
    """Content terms, lower-cased and cut to five letters (a cheap stemmer)."""
    return {word.lower()[:5] for word in _WORD.findall(text) if word.lower() not in STOPWORDS and len(word) > 1}


def key_words(question: str, limit: int) -> str:
    """The question's first content words, as written (for follow-up queries)."""
    words = [w for w in _WORD.findall(question) if w.lower() not in STOPWORDS and len(w) > 2]
    return " ".join(dict.fromkeys(words[:limit]))


def entities(text: str) -> list[str]:
    """Names: runs of capitalised words and years. A lone capitalised word that only starts a sentence
    ("Today", "Design") is not taken for a name."""
    found = []
    for match in _ENTITY.finditer(text):
        entity = match.group(0).strip()
        opens_sentence = not text[: match.start()].strip() or text[: match.start()].rstrip()[-1] in ".!?:\n#-*"
        if opens_sentence and " " not in entity and not entity.isdigit():
            continue
        found.append(entity)
    return [e for e in dict.fromkeys(found) if e.lower() not in STOPWORDS and len(e) > 2]


@dataclass(frozen=True)
class Seen:
    chunk: wire.WireChunk
    relevance: float
    order: int
    weight: float = 1.0  # QUESTION_WEIGHT for chunks the whole-question search returned


def rank_key(seen: Seen) -> tuple[float, int]:
    """Order within a group: the chunk's retrieval (RRF) score, nudged by its measured relevance."""
    return -(seen.chunk.score + RELEVANCE_WEIGHT * seen.relevance), seen.order


def final_ranking(items: Sequence[Seen], head: int) -> list[Seen]:
    """The whole-question search's first ``head`` chunks, then the follow-up searches' and the rest
    alternately: the first hop keeps its best evidence and each later hop gets places near the top."""
    direct = sorted((s for s in items if s.weight == QUESTION_WEIGHT), key=rank_key)
    other = sorted((s for s in items if s.weight == BRIDGE_WEIGHT), key=rank_key)
    ranked = direct[:head]
    rest = direct[head:] + sorted((s for s in items if s.weight < BRIDGE_WEIGHT), key=rank_key)
    while other or rest:
        ranked.extend(queue.pop(0) for queue in (other, rest) if queue)
    return ranked


class HeuristicBackend:
    def __init__(
        self,
        *,
        variant: int = 0,
        max_hops: int = 3,
        prune_below: float = 0.1,
        calls_per_turn: int = 4,
        max_ranked: int = 20,
    ) -> None:
        self.variant, self.max_hops, self.prune_below = variant, max_hops, prune_below
        self.calls_per_turn, self.max_ranked = calls_per_turn, max_ranked
        self._ids = itertools.count(1)

    @property
    def name(self) -> str:
        return f"heuristic-{self.variant}"

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], *, on_delta: DeltaCallback | None = None
    ) -> ModelTurn:
        question = next(m.content for m in messages if m.role == "user")
        turns = sum(1 for m in messages if m.role == "assistant")
        if turns == 0:
            return self._turn(self._decompose(question))
        return self._follow_up(question, messages, turns)

    def _call(self, name: str, **arguments: object) -> ToolCall:
        return ToolCall(id=f"h{self.variant}_{next(self._ids)}", name=name, arguments=json.dumps(arguments))

    def _turn(self, calls: list[ToolCall]) -> ModelTurn:
        return ModelTurn(tool_calls=tuple(calls), finish_reason="tool_calls")

    def _decompose(self, question: str) -> list[ToolCall]:
        clauses = [
            c.strip() for c in re.split(r"[,;?]|\band\b|\bwhich\b|\bwho\b|\bthat\b", question) if len(terms(c)) >= 2
        ]
        key = key_words(question, 4)
        queries = [question.strip(), *clauses, *(f"{e} {key}" for e in entities(question))]
        queries = list(dict.fromkeys(q for q in queries if q))
        shift = self.variant % max(1, len(queries))
        rotated = queries[shift:] + queries[:shift]
        calls = [self._call("search_corpus", query=q) for q in rotated[: self.calls_per_turn]]
        calls += [self._call("grep_corpus", pattern=re.escape(p)) for p in _QUOTED.findall(question)[:2]]
        return calls

    def _follow_up(self, question: str, messages: Sequence[Message], turns: int) -> ModelTurn:
        seen = self._seen(question, messages)
        pruned = set(itertools.chain.from_iterable(wire.parse_stubs(m.content) for m in messages if m.role == "tool"))
        live = [s for s in seen if s.chunk.chunk_id not in pruned]
        relevant = [s for s in live if s.relevance >= self.prune_below]
        new_last_turn = self._new_relevant_last_turn(messages, relevant)
        used, limit = self._usage(messages)
        if turns > self.max_hops or not new_last_turn or used >= limit // 2:
            ranked = final_ranking(relevant or live, FIRST_HOP_HEAD)
            if not ranked:
                return ModelTurn(content="No supporting documents found.")
            return self._turn(
                [self._call("complete", ranked_chunk_ids=[s.chunk.chunk_id for s in ranked[: self.max_ranked]])]
            )
        calls = self._bridges(question, messages, relevant)
        to_prune = [s.chunk.chunk_id for s in live if s.relevance < self.prune_below]
        if to_prune:
            calls.append(self._call("prune_chunks", chunk_ids=to_prune))
        if not calls:
            ranked_ids = [s.chunk.chunk_id for s in final_ranking(relevant, FIRST_HOP_HEAD)]
            return self._turn([self._call("complete", ranked_chunk_ids=ranked_ids[: self.max_ranked])])
        return self._turn(calls)

    def _seen(self, question: str, messages: Sequence[Message]) -> list[Seen]:
        """Every chunk seen, with its relevance: the share of the question's terms it contains, or, for a
        chunk that names an entity this rollout followed from an earlier hop, at least ``BRIDGE_RELEVANCE``."""
        wanted = terms(question)
        followed = self._followed_entities(question, messages)
        first_turn = next((m for m in messages if m.role == "assistant"), None)
        opening = {c.id for c in first_turn.tool_calls} if first_turn else set()
        question_calls = {
            c.id for c in (first_turn.tool_calls if first_turn else ()) if question.strip() in c.arguments
        }
        unique: dict[str, tuple[wire.WireChunk, float]] = {}
        for message in messages:
            if message.role == "tool":
                weight = (
                    QUESTION_WEIGHT
                    if message.tool_call_id in question_calls
                    else SUBQUERY_WEIGHT
                    if message.tool_call_id in opening
                    else BRIDGE_WEIGHT
                )
                for chunk in wire.parse(message.content):
                    unique.setdefault(chunk.chunk_id, (chunk, weight))
        seen = []
        for order, (chunk, weight) in enumerate(unique.values()):
            relevance = len(wanted & terms(chunk.title + " " + chunk.text)) / max(1, len(wanted))
            if any(entity in chunk.text for entity in followed):
                relevance = max(relevance, BRIDGE_RELEVANCE)
            seen.append(Seen(chunk, relevance, order, weight))
        return seen

    def _followed_entities(self, question: str, messages: Sequence[Message]) -> set[str]:
        in_question = {e.lower() for e in entities(question)}
        queries = [json.loads(c.arguments).get("query", "") for m in messages for c in m.tool_calls]
        return {e for q in queries[1:] for e in entities(q) if e.lower() not in in_question}

    def _new_relevant_last_turn(self, messages: Sequence[Message], relevant: list[Seen]) -> bool:
        last = list(itertools.takewhile(lambda m: m.role == "tool", reversed(messages)))
        fresh = {c.chunk_id for m in last for c in wire.parse(m.content)}
        return any(s.chunk.chunk_id in fresh for s in relevant)

    def _usage(self, messages: Sequence[Message]) -> tuple[int, int]:
        for message in reversed(messages):
            match = _USAGE.search(message.content)
            if match:
                return int(match.group(1).replace(",", "")), int(match.group(2).replace(",", ""))
        return 0, 1

    def _bridges(self, question: str, messages: Sequence[Message], relevant: list[Seen]) -> list[ToolCall]:
        """Follow-up searches for entities the best chunks mention and the question does not."""
        asked = {json.loads(c.arguments).get("query", "").lower() for m in messages for c in m.tool_calls}
        known = {e.lower() for e in entities(question)}
        key = key_words(question, 3)
        calls: list[ToolCall] = []
        for item in sorted(relevant, key=lambda s: (-s.relevance, s.order))[:4]:
            for entity in entities(item.chunk.text):
                query = f"{entity} {' '.join(w for w in key.split() if w.lower() not in entity.lower())}".strip()
                if entity.lower() in known or query.lower() in asked or len(calls) >= self.calls_per_turn - 1:
                    continue
                known.add(entity.lower())
                calls.append(self._call("search_corpus", query=query))
        return calls
