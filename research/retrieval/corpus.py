"""A hybrid corpus: BM25 and dense search fused by RRF, reranked and packed; regex grep; whole-document reads.

This is what the harness's ``Corpus`` port is backed by: ``search``, ``grep`` and ``read_document``
never return a chunk id in ``exclude`` and never exceed the token budget they are given. Several
corpora searched as one (``corpus_set.CorpusSet``) share the same packing, reranking and reading.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from research.protocol import wire
from research.protocol.fusion import RRF_K, Fused, rrf
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders import Embedder
from research.retrieval.packing import costs, frame_counts, pack, pack_truncating
from research.retrieval.rerankers import Reranker
from research.retrieval.sparse import SparseIndex, with_title
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
    # documents of one source file a search returns while other files have chunks to give (a CRM export's rows,
    # each a short document naming the company, outranked a company's home page in every search: host crowding)
    per_source: int = 3
    # the dense ranking's weight in the fusion for a corpus in another language than English: the packaged
    # embedder (MiniLM) is English, and ranked a French pricing page 35th that BM25 ranked 3rd
    dense_weight_other_language: float = 0.5

    def weights(self, language: str) -> dict[str, float]:
        """The fusion's weights for a corpus in ``language``."""
        return {} if language == "en" else {"dense": self.dense_weight_other_language}


class Crowding:
    """At most ``per_source`` documents of one source file in a search's results while other files have chunks to
    give (0: no limit); the rest are ``held`` back, in rank order. A chunk without a source (an evaluation's
    index) is never held."""

    def __init__(self, per_source: int) -> None:
        self.per_source = per_source
        self.documents: dict[str, set[str]] = {}
        self.held: list[ScoredChunk] = []

    def admit(self, ranked: Sequence[ScoredChunk]) -> list[ScoredChunk]:
        admitted: list[ScoredChunk] = []
        for item in ranked:
            source = item.chunk.metadata.get("source", "")
            documents = self.documents.setdefault(source, set())
            if source and self.per_source and item.chunk.doc_id not in documents and len(documents) >= self.per_source:
                self.held.append(item)
                continue
            documents.add(item.chunk.doc_id)
            admitted.append(item)
        return admitted


class SearchableCorpus(ABC):
    """What the tools search: ranked candidate ids (``fused``), their chunks (``hydrate``), a document's chunks
    and regex matches; from these, one packing, reranking, grep and read for one corpus and for several."""

    counter: TokenCounter
    reranker: Reranker
    config: SearchConfig

    @abstractmethod
    def fused(self, query: str, *, exclude: frozenset[str]) -> list[Fused]:
        """BM25 and dense candidate ids fused by RRF, best first; no chunk text fetched yet."""

    @abstractmethod
    def hydrate(self, fused: Sequence[Fused]) -> list[ScoredChunk]:
        """The chunks of ``fused`` ids, in order; an id deleted meanwhile is skipped."""

    @abstractmethod
    def document_chunks(self, doc_id: str) -> list[Chunk]:
        """The document's chunks in document order (none for an unknown document)."""

    @abstractmethod
    def grep_matches(self, pattern: str, *, exclude: frozenset[str]) -> list[Chunk]:
        """Up to ``grep_limit`` chunks matching ``pattern`` in document order; ``GrepError`` for a bad pattern."""

    def has_document(self, doc_id: str) -> bool:
        return bool(self.document_chunks(doc_id))

    def candidates(self, query: str, *, exclude: frozenset[str]) -> list[ScoredChunk]:
        """Every fused candidate with its chunk, best first."""
        return self.hydrate(self.fused(query, exclude=exclude))

    def _rerank(self, query: str, ranked: list[ScoredChunk]) -> list[ScoredChunk]:
        head, tail = ranked[: self.config.rerank_depth], ranked[self.config.rerank_depth :]
        scores = self.reranker.scores(query, [item.chunk.text for item in head])
        if scores is None:
            return ranked
        rescored = [ScoredChunk(item.chunk, score, item.ranks) for item, score in zip(head, scores, strict=True)]
        rescored.sort(key=lambda item: (-item.score, item.chunk_id))
        return rescored + tail

    def search(self, query: str, *, exclude: frozenset[str] = frozenset(), budget: int | None = None) -> ToolResult:
        """The best unseen chunks that fit ``budget`` tokens, at most ``max_results``.

        Without a reranker the fused candidates are fetched and packed a window at a time, so a search
        fetches about as many chunks as it returns; it stops at the limit, or once the room left is
        smaller than every chunk it has costed (chunks of one corpus are alike in size, so a smaller one
        further down is rare and weakly ranked). A reranker needs every candidate's text, so then all
        candidates are fetched, reranked and packed at once."""
        return self.pack_fused(query, self.fused(query, exclude=exclude), budget=budget)

    def pack_fused(self, query: str, fused: Sequence[Fused], *, budget: int | None = None) -> ToolResult:
        """The second half of ``search``: fetch, (rerank,) pack."""
        budget = self.config.search_budget if budget is None else min(budget, self.config.search_budget)
        limit = self.config.max_results
        crowding = Crowding(self.config.per_source)
        if self.reranker.name != "none":
            ranked = crowding.admit(self._rerank(query, self.hydrate(fused)))
            return pack([*ranked, *crowding.held], budget=budget, counter=self.counter, limit=limit).result
        kept: list[ScoredChunk] = []
        used, smallest, window = 0, 0, max(limit + limit // 2, 1)  # smallest: of every chunk costed so far
        for start in range(0, len(fused), window):
            if len(kept) >= limit or budget - used < smallest:
                break
            batch = self.hydrate(fused[start : start + window])
            smallest = min(costs(batch, self.counter) + ([smallest] if start else []), default=smallest)
            part = pack(crowding.admit(batch), budget=budget - used, counter=self.counter, limit=limit - len(kept))
            kept.extend(part.result.chunks)
            used += part.result.tokens
        if len(kept) < limit and crowding.held:  # no other file had more to give: the crowded-out chunks after all
            part = pack(crowding.held, budget=budget - used, counter=self.counter, limit=limit - len(kept))
            kept.extend(part.result.chunks)
            used += part.result.tokens
        return ToolResult(chunks=kept, tokens=used, omitted=len(fused) - len(kept))

    def grep(self, pattern: str, *, exclude: frozenset[str] = frozenset(), budget: int | None = None) -> ToolResult:
        """Up to ``grep_limit`` chunks matching ``pattern``; raises ``GrepError`` for an invalid pattern."""
        matches = self.grep_matches(pattern, exclude=exclude)
        budget = self.config.grep_budget if budget is None else min(budget, self.config.grep_budget)
        return pack([ScoredChunk(c, 1.0) for c in matches], budget=budget, counter=self.counter).result

    def read_document(
        self, doc_id: str, *, budget: int, query: str = "", exclude: frozenset[str] = frozenset()
    ) -> ToolResult:
        """The document's chunks (minus ``exclude``), reranked against ``query`` when a reranker is set, else in
        document order, cut to ``budget`` with a truncation marker."""
        chunks = [c for c in self.document_chunks(doc_id) if c.chunk_id not in exclude]
        ordered = [ScoredChunk(c, 1.0) for c in chunks]
        if query:
            ordered = self._rerank(query, ordered)
        packed = pack_truncating(ordered, budget=budget, counter=self.counter)
        if not chunks:
            return ToolResult(chunks=[], tokens=0, note=f"no unseen chunks in document {doc_id!r}")
        return packed.result


REFINE_READ = 100  # documents whose waiting chunks are read from the word store at once
REFINE_BATCH = 64  # chunks embedded and moved together (whole documents: a batch may run over)


class HybridCorpus(SearchableCorpus):
    """One corpus: a Chroma collection and its BM25 index, written by ingestion and searched by the tools."""

    def __init__(
        self,
        *,
        dense: DenseIndex,
        sparse: SparseIndex,
        embedder: Embedder,
        reranker: Reranker,
        counter: TokenCounter,
        config: SearchConfig | None = None,
        words: DenseIndex | None = None,
    ) -> None:
        self.dense, self.sparse, self.embedder = dense, sparse, embedder
        self.reranker, self.counter, self.config = reranker, counter, config or SearchConfig()
        self.words = words  # chunks without a vector yet: BM25 finds them, the dense search does not (see add_words)
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hybrid")

    # --- write side -------------------------------------------------------------------------
    def add(self, chunks: Sequence[Chunk]) -> None:
        """Embed and store ``chunks`` (upsert by chunk id, so a retry does not duplicate)."""
        if chunks:
            self.dense.upsert(self.counted(chunks), self.embedder.embed_documents([c.text for c in chunks]))

    def add_words(self, chunks: Sequence[Chunk]) -> None:
        """Store ``chunks`` without embedding them: searchable by words once BM25 is refreshed, readable and
        greppable at once; ``refine`` embeds them later. Without a word store, the same as ``add``."""
        if not chunks:
            return
        if self.words is None:
            self.add(chunks)
            return
        self.words.upsert(self.counted(chunks), np.ones((len(chunks), 1), dtype=np.float32))

    def refine(self, doc_ids: Sequence[str], *, progress: Callable[[int], None] = lambda moved: None) -> int:
        """Embed the chunks of ``doc_ids`` still waiting in the word store and move them into the dense index, in
        batches of whole documents (a document is never half-moved: its vectors are written before its words-only
        copy is deleted, and both are upserts, so a retry after a crash resumes). Returns the chunks moved."""
        if self.words is None:
            return 0
        moved, docs, chunks = 0, [], []
        for start in range(0, len(doc_ids), REFINE_READ):
            waiting = self.words.documents_chunks(doc_ids[start : start + REFINE_READ])
            for doc_id, doc_chunks in waiting.items():
                docs.append(doc_id)
                chunks += doc_chunks
                if len(chunks) >= REFINE_BATCH:
                    moved += self._move(docs, chunks)
                    progress(moved)
                    docs, chunks = [], []
        if chunks:
            moved += self._move(docs, chunks)
            progress(moved)
        return moved

    def _move(self, doc_ids: list[str], chunks: list[Chunk]) -> int:
        self.dense.upsert(chunks, self.embedder.embed_documents([c.text for c in chunks]))
        self.words.delete_documents(doc_ids)  # type: ignore[union-attr]
        return len(chunks)

    def waiting(self) -> int:
        """How many chunks have no vector yet."""
        return self.words.count() if self.words is not None else 0

    def counted(self, chunks: Sequence[Chunk]) -> list[Chunk]:
        """``chunks`` with their wire token counts (body, and frame less its score), stored beside them so
        searches need not tokenise (see ``packing.costs``)."""
        bodies = self.counter.count_many([wire.body(c.text) for c in chunks])
        frames = frame_counts([ScoredChunk(c, 0.0) for c in chunks], self.counter)
        return [
            replace(c, body_tokens=body, body_counter=self.counter.name, frame_tokens=frame)
            for c, body, frame in zip(chunks, bodies, frames, strict=True)
        ]

    def delete_documents(self, doc_ids: Sequence[str]) -> None:
        for store in self._stores():
            store.delete_documents(doc_ids)

    def refresh_sparse(self) -> int:
        """Rebuild BM25 from the stored texts (embedded or waiting), so BM25 holds every stored chunk."""
        return self.sparse.rebuild(self._texts())

    def _stores(self) -> list[DenseIndex]:
        return [self.dense] if self.words is None else [self.dense, self.words]

    def _texts(self) -> Iterator[tuple[str, str]]:
        """What BM25 indexes of each stored chunk: ``sparse.with_title`` (its document's title and publisher, then its
        text)."""
        seen: set[str] = set()  # a chunk being moved may be in both stores for a moment
        for store in self._stores():
            for chunk_id, text, title, publisher in store.iter_headed_texts():
                if chunk_id not in seen:
                    seen.add(chunk_id)
                    yield chunk_id, with_title(text, title=title, publisher=publisher)

    # --- read side -------------------------------------------------------------------------
    def fused(self, query: str, *, exclude: frozenset[str]) -> list[Fused]:
        """BM25 and dense candidate ids (in parallel), fused by RRF, best first; no chunk text fetched yet."""
        n = self.config.candidates
        sparse_future = self._pool.submit(self.sparse.query, query, n=n, exclude=exclude)
        dense_ids = self.dense.query(self.embedder.embed_query(query), n=n, exclude=exclude)
        sparse_ids = [chunk_id for chunk_id, _ in sparse_future.result()]
        weights = self.config.weights(self.sparse.language())
        return rrf({"bm25": sparse_ids, "dense": dense_ids}, k=self.config.rrf_k, weights=weights)

    def hydrate(self, fused: Sequence[Fused]) -> list[ScoredChunk]:
        """The chunks of ``fused`` ids (one Chroma fetch, a second for ids waiting for their vectors), in order;
        an id deleted meanwhile is skipped."""
        found = self.chunks_by_id([f.item_id for f in fused])
        return [ScoredChunk(found[f.item_id], f.score, f.ranks) for f in fused if f.item_id in found]

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        found: dict[str, Chunk] = {}
        missing = list(chunk_ids)
        for store in self._stores():
            if missing:
                found |= store.get(missing)
                missing = [chunk_id for chunk_id in missing if chunk_id not in found]
        return found

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        chunks = {c.chunk_id: c for store in self._stores() for c in store.document_chunks(doc_id)}
        return sorted(chunks.values(), key=lambda c: c.index)

    def grep_matches(self, pattern: str, *, exclude: frozenset[str]) -> list[Chunk]:
        limit = self.config.grep_limit
        chunks = {c.chunk_id: c for store in self._stores() for c in store.grep(pattern, limit=limit, exclude=exclude)}
        return sorted(chunks.values(), key=lambda c: (c.doc_id, c.index))[:limit]

    def close(self) -> None:
        self._pool.shutdown(wait=False)
