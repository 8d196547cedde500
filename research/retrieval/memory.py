"""The in-memory corpus: the harness's ``Corpus`` port over a dict of texts, for tests and benchmarks."""

from __future__ import annotations

import re
import threading
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Literal

from research.harness.context import Counter
from research.harness.ports import CorpusHit, CorpusResult, CorpusToolError
from research.protocol import wire

Ranking = Literal["overlap", "rotation"]
GREP_HITS = 5
BASE_SCORE = 1.0  # every chunk's score until a search scores it
_WORD = re.compile(r"\w+")


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


class MemoryCorpus:
    """``documents`` maps a document id to its chunks' texts; chunk ``i`` of ``doc`` is ``doc#i``, titled
    ``titles[doc]`` (default: ``doc.title()``), with ``BASE_SCORE`` unless a search scores it.

    ``search`` ranks by ``ranking``: ``"overlap"`` scores each chunk by the words it shares with the query and
    finds no chunk that shares none; ``"rotation"`` finds every chunk, in corpus order from a place that depends
    on the query (so concurrent searches return different chunks whatever their words). It returns at most
    ``per_call`` hits, ``grep`` the first ``GREP_HITS`` chunks its regular expression matches, ``read_document``
    every chunk of the document; none returns an excluded chunk, and ``omitted`` counts what was found but left
    out. With ``count``, search and grep also stop before their hits' rendered tokens pass the budget, and with
    ``counter_name`` every hit carries that count, as the product's corpus does. ``calls`` records each call
    (tool, query/pattern/doc id, exclusions, budget) unless ``record`` is off; with a ``barrier``, every call
    waits at it (a test's proof that calls run concurrently).
    """

    def __init__(
        self,
        documents: Mapping[str, Sequence[str]],
        *,
        ranking: Ranking = "overlap",
        per_call: int = 3,
        titles: Mapping[str, str] | None = None,
        count: Counter | None = None,
        counter_name: str = "",
        barrier: threading.Barrier | None = None,
        record: bool = True,
    ) -> None:
        names = titles or {}
        hits = [
            CorpusHit(f"{doc}#{i}", doc, names.get(doc, doc.title()), BASE_SCORE, text)
            for doc, texts in documents.items()
            for i, text in enumerate(texts)
        ]
        self.ranking, self.per_call, self.barrier, self.record = ranking, per_call, barrier, record
        self.count, self.counter_name = count, counter_name
        self.calls: list[tuple[str, str, frozenset[str], int]] = []
        priced = [self._price(hit) for hit in hits]
        self.hits = tuple(hit for hit, _ in priced)
        self.costs = {hit.chunk_id: cost for hit, cost in priced}  # rendered tokens by chunk id (0 without count)
        self._words = [_words(hit.text) for hit in hits]

    def search(self, query: str, *, exclude: frozenset[str], budget: int, limit: int | None = None) -> CorpusResult:
        self._record("search", query, exclude, budget)
        found = self._overlapping(query) if self.ranking == "overlap" else self._rotated(query)
        return self._pack((hit for hit in found if hit.chunk_id not in exclude), budget, limit or self.per_call)

    def grep(self, pattern: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        self._record("grep", pattern, exclude, budget)
        try:
            compiled = re.compile(pattern)
        except re.error as error:
            raise CorpusToolError(f"invalid pattern {pattern!r}: {error}") from None
        found = (hit for hit in self.hits if compiled.search(hit.text) and hit.chunk_id not in exclude)
        return self._pack(found, budget, GREP_HITS)

    def read_document(self, doc_id: str, *, query: str, exclude: frozenset[str], budget: int) -> CorpusResult:
        self._record("read", doc_id, exclude, budget)
        chunks = [hit for hit in self.hits if hit.doc_id == doc_id]
        if not chunks:
            raise CorpusToolError(f"no document {doc_id!r}")
        return CorpusResult(hits=tuple(hit for hit in chunks if hit.chunk_id not in exclude))

    def _record(self, tool: str, subject: str, exclude: frozenset[str], budget: int) -> None:
        if self.record:
            self.calls.append((tool, subject, exclude, budget))
        if self.barrier is not None:
            self.barrier.wait(timeout=5)

    def _overlapping(self, query: str) -> list[CorpusHit]:
        asked = _words(query)
        scored = [(len(asked & words), hit) for hit, words in zip(self.hits, self._words, strict=True)]
        found = [replace(hit, score=float(overlap)) for overlap, hit in scored if overlap]
        return sorted(found, key=lambda hit: (-hit.score, hit.chunk_id))

    def _rotated(self, query: str) -> Sequence[CorpusHit]:
        start = zlib.crc32(query.encode()) % max(1, len(self.hits))
        return self.hits[start:] + self.hits[:start]

    def _price(self, hit: CorpusHit) -> tuple[CorpusHit, int]:
        """The hit and its rendered tokens (0 without ``count``); it carries them when a counter is named."""
        if self.count is None:
            return hit, 0
        cost = self.count(wire.render(wire.WireChunk(hit.chunk_id, hit.doc_id, hit.title, hit.score, hit.text)))
        return (replace(hit, tokens=cost, counter=self.counter_name) if self.counter_name else hit), cost

    def _pack(self, found: Iterable[CorpusHit], budget: int, limit: int) -> CorpusResult:
        """The first ``limit`` hits, stopping before their tokens pass ``budget`` when counting."""
        candidates = list(found)
        picked: list[CorpusHit] = []
        used = 0
        for hit in candidates:
            priced, cost = (hit, self.costs[hit.chunk_id]) if hit.score == BASE_SCORE else self._price(hit)
            if len(picked) == limit or (self.count is not None and used + cost > budget):
                break
            picked.append(priced)
            used += cost
        return CorpusResult(hits=tuple(picked), omitted=len(candidates) - len(picked))
