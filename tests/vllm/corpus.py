"""A small in-memory corpus for the vLLM tier: the harness's Corpus port over a few hand-written documents.

Each rendered chunk is longer than two 32-token blocks of the tiny model's tokenizer, so pruning one moves
the first changed token of a prompt by whole blocks. Some chunks contain "the result is ok", which is what
the tiny model greps for.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from research.harness.ports import CorpusHit, CorpusResult, CorpusToolError
from research.harness.run import estimate_tokens
from research.protocol import wire

DOCUMENTS: dict[str, list[str]] = {
    "runbook": [
        "The serving engine keeps the keys and values of every prompt in blocks of thirty-two tokens. "
        "A later request that starts with the same tokens reuses those blocks instead of computing them again.",
        "Before a deploy, the operator checks the health page. When every check answers, the result is ok "
        "and the deploy goes on; otherwise the operator reads the failing check and stops.",
        "The engine frees the oldest unused blocks first when memory runs short, so a long idle prefix can be "
        "evicted while a busy one stays.",
    ],
    "pruning": [
        "When the agent prunes a chunk, the chunk's text leaves every later prompt and a short stub keeps its "
        "place. Every token after the stub changes, so only the blocks before it can be reused.",
        "A prune late in the transcript keeps most of the prompt cached; a prune near the start throws most "
        "of the cache away. The agent therefore prunes in batches rather than one chunk per turn.",
        "After a prune, the next turn recomputes the tail of the prompt once, and the turns after it reuse "
        "the new prefix again, so the result is ok after one slower turn.",
    ],
    "budget": [
        "Each rollout has a token budget. Past half of it the agent is urged to prune or to finish; past the "
        "hard cutoff only pruning and finishing are allowed until enough space is free again.",
        "The usage line at the end of every turn gives the tokens used so far and the limit, so the agent "
        "can see how close it is to the cutoff before it asks for more search results.",
    ],
    "rollouts": [
        "A research run starts several rollouts on the same question. They share the system prompt, the tool "
        "schemas and the question, so their first prompts hit the same cached blocks.",
        "The rankings of the rollouts are fused by reciprocal rank fusion, and a document that several "
        "rollouts found rises to the top; the result is ok even when one rollout fails.",
    ],
}


@dataclass
class TinyCorpus:
    """Search ranks chunks by words shared with the query; every tool honours ``exclude`` and ``budget``."""

    documents: Mapping[str, Sequence[str]]
    per_call: int = 2
    calls: list[tuple[str, str]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _hits(self, exclude: frozenset[str]) -> list[CorpusHit]:
        return [
            CorpusHit(chunk_id=f"{doc}#{index}", doc_id=doc, title=doc.title(), score=1.0, text=text)
            for doc, texts in self.documents.items()
            for index, text in enumerate(texts)
            if f"{doc}#{index}" not in exclude
        ]

    def _record(self, tool: str, subject: str) -> None:
        with self._lock:  # the harness runs corpus calls in threads, rollouts concurrently
            self.calls.append((tool, subject))

    def _pack(self, hits: Sequence[CorpusHit], budget: int) -> CorpusResult:
        chosen: list[CorpusHit] = []
        used = 0
        for hit in hits[: self.per_call]:
            chunk = wire.WireChunk(hit.chunk_id, hit.doc_id, hit.title, hit.score, hit.text)
            cost = estimate_tokens(wire.render(chunk))
            if used + cost > budget:
                break
            chosen.append(hit)
            used += cost
        return CorpusResult(hits=tuple(chosen), omitted=len(hits) - len(chosen))

    def search(self, query: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        self._record("search", query)
        words = set(re.findall(r"\w+", query.lower()))
        scored = []
        for hit in self._hits(exclude):
            overlap = len(words & set(re.findall(r"\w+", hit.text.lower())))
            if overlap:
                scored.append(CorpusHit(hit.chunk_id, hit.doc_id, hit.title, round(overlap / len(words), 4), hit.text))
        scored.sort(key=lambda hit: (-hit.score, hit.chunk_id))
        return self._pack(scored, budget)

    def grep(self, pattern: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        self._record("grep", pattern)
        try:
            compiled = re.compile(pattern)
        except re.error as error:
            raise CorpusToolError(f"invalid pattern {pattern!r}: {error}") from None
        return self._pack([hit for hit in self._hits(exclude) if compiled.search(hit.text)], budget)

    def read_document(self, doc_id: str, *, query: str, exclude: frozenset[str], budget: int) -> CorpusResult:
        self._record("read", doc_id)
        if doc_id not in self.documents:
            raise CorpusToolError(f"no document {doc_id!r}")
        return self._pack([hit for hit in self._hits(exclude) if hit.doc_id == doc_id], budget)
