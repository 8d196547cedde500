"""The speed baseline: the common LangChain-style hybrid search (rank_bm25 plus Chroma, weighted RRF)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from research.retrieval.dense import DenseIndex
from research.retrieval.embedders import Embedder
from research.retrieval.types import Chunk


def whitespace_split(text: str) -> list[str]:
    """LangChain's ``default_preprocessing_func``: ``text.split()`` (no lower-casing, no stemming)."""
    return text.split()


def weighted_rrf(rankings: Sequence[Sequence[Chunk]], weights: Sequence[float], c: int = 60) -> list[Chunk]:
    """``EnsembleRetriever.weighted_reciprocal_rank``: score by text, sort (stable) best first, unique by text."""
    scores: dict[str, float] = defaultdict(float)
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, chunk in enumerate(ranking, start=1):
            scores[chunk.text] += weight / (rank + c)
    unique: dict[str, Chunk] = {}
    for ranking in rankings:
        for chunk in ranking:
            unique.setdefault(chunk.text, chunk)
    return sorted(unique.values(), key=lambda chunk: scores[chunk.text], reverse=True)


class LangChainStyleHybrid:
    """LangChain's ``BM25Retriever`` (``rank_bm25.BM25Okapi`` over ``text.split()``, ``get_top_n``) and
    ``EnsembleRetriever`` (retrievers invoked one after the other, weighted RRF with ``c = 60`` and equal
    weights, documents deduplicated by text), with the same Chroma query as ours."""

    def __init__(self, chunks: Sequence[Chunk], *, dense: DenseIndex, embedder: Embedder, k: int = 50) -> None:
        from rank_bm25 import BM25Okapi

        self.chunks, self.dense, self.embedder, self.k = list(chunks), dense, embedder, k
        self._bm25: Any = BM25Okapi([whitespace_split(chunk.text) for chunk in self.chunks])

    def bm25(self, query: str) -> list[Chunk]:
        top: list[Chunk] = self._bm25.get_top_n(whitespace_split(query), self.chunks, n=self.k)
        return top

    def search(self, query: str) -> list[Chunk]:
        sparse = self.bm25(query)
        dense = self.dense.query_chunks(self.embedder.embed_query(query), n=self.k)
        return weighted_rrf([sparse, dense], [0.5, 0.5])
