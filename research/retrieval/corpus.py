"""A hybrid corpus: BM25 and dense search fused by RRF, reranked and packed; regex grep; whole-document reads.

This is what the harness's ``Corpus`` port is backed by: ``search``, ``grep`` and ``read_document``
never return a chunk id in ``exclude`` and never exceed the token budget they are given.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from research.protocol import wire
from research.protocol.fusion import RRF_K, rrf
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders import Embedder
from research.retrieval.packing import pack, pack_truncating
from research.retrieval.rerankers import Reranker
from research.retrieval.sparse import SparseIndex
from research.retrieval.tokens import TokenCounter
from research.retrieval.types import Chunk, ScoredChunk, ToolResult


@dataclass(frozen=True)
class SearchConfig:
    candidates: int = 50  # per retriever, before fusion
    rrf_k: int = RRF_K
    rerank_depth: int = 50  # fused candidates passed to the reranker
    max_results: int = 10
    search_budget: int = 3000  # tokens per search_corpus call
    grep_limit: int = 5
    grep_budget: int = 3000


class HybridCorpus:
    def __init__(
        self, *, dense: DenseIndex, sparse: SparseIndex, embedder: Embedder, reranker: Reranker,
        counter: TokenCounter, config: SearchConfig | None = None,
    ) -> None:  # fmt: skip
        self.dense, self.sparse, self.embedder = dense, sparse, embedder
        self.reranker, self.counter, self.config = reranker, counter, config or SearchConfig()
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hybrid")

    # --- write side -------------------------------------------------------------------------
    def add(self, chunks: Sequence[Chunk]) -> None:
        """Embed and store ``chunks`` (upsert by chunk id, so a retry does not duplicate)."""
        if chunks:
            self.dense.upsert(self.counted(chunks), self.embedder.embed_documents([c.text for c in chunks]))

    def counted(self, chunks: Sequence[Chunk]) -> list[Chunk]:
        """``chunks`` with their wire body token counts, stored beside them so searches need not re-count."""
        counts = self.counter.count_many([wire.body(c.text) for c in chunks])
        return [replace(c, body_tokens=n, body_counter=self.counter.name) for c, n in zip(chunks, counts, strict=True)]

    def delete_documents(self, doc_ids: Sequence[str]) -> None:
        self.dense.delete_documents(doc_ids)

    def refresh_sparse(self) -> int:
        """Rebuild BM25 from the dense store's texts, so both indexes hold the same chunks."""
        return self.sparse.rebuild(self.dense.iter_texts())

    # --- tools ---------------------------------------------------------------------------
    def candidates(self, query: str, *, exclude: frozenset[str]) -> list[ScoredChunk]:
        """BM25 and dense candidates (in parallel), fused by RRF, best first."""
        n = self.config.candidates
        sparse_future = self._pool.submit(self.sparse.query, query, n=n, exclude=exclude)
        dense_hits = self.dense.query(self.embedder.embed_query(query), n=n, exclude=exclude)
        sparse_hits = sparse_future.result()
        fused = rrf(
            {"bm25": [i for i, _ in sparse_hits], "dense": [c.chunk_id for c in dense_hits]}, k=self.config.rrf_k
        )
        known = {c.chunk_id: c for c in dense_hits}
        known.update(self.dense.get([f.item_id for f in fused if f.item_id not in known]))
        return [ScoredChunk(known[f.item_id], f.score, f.ranks) for f in fused if f.item_id in known]

    def _rerank(self, query: str, ranked: list[ScoredChunk]) -> list[ScoredChunk]:
        head, tail = ranked[: self.config.rerank_depth], ranked[self.config.rerank_depth :]
        scores = self.reranker.scores(query, [item.chunk.text for item in head])
        if scores is None:
            return ranked
        rescored = [ScoredChunk(item.chunk, score, item.ranks) for item, score in zip(head, scores, strict=True)]
        rescored.sort(key=lambda item: (-item.score, item.chunk_id))
        return rescored + tail

    def search(self, query: str, *, exclude: frozenset[str] = frozenset(), budget: int | None = None) -> ToolResult:
        ranked = self._rerank(query, self.candidates(query, exclude=exclude))
        budget = self.config.search_budget if budget is None else min(budget, self.config.search_budget)
        return pack(ranked, budget=budget, counter=self.counter, limit=self.config.max_results).result

    def grep(self, pattern: str, *, exclude: frozenset[str] = frozenset(), budget: int | None = None) -> ToolResult:
        """Up to ``grep_limit`` chunks matching ``pattern``; raises ``GrepError`` for an invalid pattern."""
        matches = self.dense.grep(pattern, limit=self.config.grep_limit, exclude=exclude)
        budget = self.config.grep_budget if budget is None else min(budget, self.config.grep_budget)
        return pack([ScoredChunk(c, 1.0) for c in matches], budget=budget, counter=self.counter).result

    def read_document(
        self, doc_id: str, *, budget: int, query: str = "", exclude: frozenset[str] = frozenset()
    ) -> ToolResult:
        """The document's chunks (minus ``exclude``), reranked against ``query`` when a reranker is set, else in
        document order, cut to ``budget`` with a truncation marker."""
        chunks = [c for c in self.dense.document_chunks(doc_id) if c.chunk_id not in exclude]
        ordered = [ScoredChunk(c, 1.0) for c in chunks]
        if query:
            ordered = self._rerank(query, ordered)
        packed = pack_truncating(ordered, budget=budget, counter=self.counter)
        if not chunks:
            return ToolResult(chunks=[], tokens=0, note=f"no unseen chunks in document {doc_id!r}")
        return packed.result

    def close(self) -> None:
        self._pool.shutdown(wait=False)
