"""Several corpora as one harness ``Corpus``: each corpus answers, the answers are fused by RRF and re-packed.

Each corpus is asked with the whole token budget; their ranked hits are fused by reciprocal rank
fusion (the same formula that fuses BM25 and dense inside one corpus) and kept, best first, while
their rendered size fits the budget and their number stays within the longest single answer (the
corpus's own result limit). Exclusions pass through unchanged: chunk ids are ``<doc_id>#<n>`` in
every corpus, so a chunk id seen in one corpus is excluded in all (the same file uploaded to two
corpora is the same document). ``read_document`` asks the corpora in order and returns the first
that knows the document.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from research.harness.ports import Corpus, CorpusHit, CorpusResult, CorpusToolError
from research.protocol import wire
from research.protocol.fusion import rrf


@dataclass(frozen=True)
class _Answer:
    result: CorpusResult
    hits: dict[str, CorpusHit]


class MultiCorpus:
    def __init__(self, corpora: Sequence[Corpus], *, count: Callable[[str], int]) -> None:
        if len(corpora) < 2:
            raise ValueError("MultiCorpus needs at least two corpora")
        self.corpora, self.count = tuple(corpora), count

    def search(self, query: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        return self._merge([c.search(query, exclude=exclude, budget=budget) for c in self.corpora], budget)

    def grep(self, pattern: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        return self._merge([c.grep(pattern, exclude=exclude, budget=budget) for c in self.corpora], budget)

    def read_document(self, doc_id: str, *, query: str, exclude: frozenset[str], budget: int) -> CorpusResult:
        first_error: CorpusToolError | None = None
        for corpus in self.corpora:
            try:
                return corpus.read_document(doc_id, query=query, exclude=exclude, budget=budget)
            except CorpusToolError as error:
                first_error = first_error or error
        assert first_error is not None
        raise first_error

    def _merge(self, results: list[CorpusResult], budget: int) -> CorpusResult:
        answers = [_Answer(r, {hit.chunk_id: hit for hit in r.hits}) for r in results]
        fused = rrf({str(i): [hit.chunk_id for hit in a.result.hits] for i, a in enumerate(answers)})
        limit = max(len(r.hits) for r in results)
        kept: list[CorpusHit] = []
        used = 0
        for item in fused:
            hit = next(a.hits[item.item_id] for a in answers if item.item_id in a.hits)
            cost = self.count(wire.render(wire.WireChunk(hit.chunk_id, hit.doc_id, hit.title, hit.score, hit.text)))
            if len(kept) < limit and used + cost <= budget:
                kept.append(hit)
                used += cost
        omitted = sum(r.omitted for r in results) + len(fused) - len(kept)
        notes = "; ".join(dict.fromkeys(r.note for r in results if r.note))
        return CorpusResult(hits=tuple(kept), omitted=omitted, note=notes)
