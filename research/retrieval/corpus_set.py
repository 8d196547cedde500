"""Several hybrid corpora searched as one: shared BM25 statistics, merged dense distances, one fusion, one packing.

A run over several corpora must rank as one corpus holding all their chunks would. Fusing each
corpus's own ranking by rank (RRF over corpora) cannot: it gives the best hit of an irrelevant corpus
the weight of the best hit of the relevant one. Instead each retriever ranks across corpora on a
common scale: BM25 with the statistics of the union (``shared_bm25``), dense by the cosine distances
of the one embedding model every corpus of an installation uses (each collection's nearest ``n``,
merged by distance, is the union's nearest ``n``). Then, as for one corpus, the two rankings are fused
by RRF and the fused list is fetched, (reranked,) and packed by ``SearchableCorpus``. ``grep`` merges
the corpora's matches in document order; ``read_document`` reads the first corpus that holds the
document. Chunk ids are ``<doc_id>#<n>`` in every corpus, so exclusions apply to all alike, and a
chunk present in two corpora (the same document uploaded to both) is ranked once.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from research.protocol.fusion import Fused, rrf
from research.retrieval import shared_bm25
from research.retrieval.corpus import HybridCorpus, SearchableCorpus
from research.retrieval.embedders import Vectors
from research.retrieval.types import Chunk, ScoredChunk


@functools.cache
def _pool() -> ThreadPoolExecutor:
    """The threads that run BM25 beside the dense queries (one per concurrent search; created on first use)."""
    return ThreadPoolExecutor(max_workers=8, thread_name_prefix="corpus-set")


class CorpusSet(SearchableCorpus):
    """``members`` searched as one corpus; they share one embedder (by name), and the first member's search
    configuration, reranker and token counter apply."""

    def __init__(self, members: Sequence[HybridCorpus]) -> None:
        if not members:
            raise ValueError("a corpus set needs at least one corpus")
        names = {member.embedder.name for member in members}
        if len(names) > 1:
            raise ValueError(f"corpora embedded by different models cannot be searched as one: {sorted(names)}")
        self.members = tuple(members)
        first = self.members[0]
        self.embedder, self.reranker, self.counter, self.config = (
            first.embedder,
            first.reranker,
            first.counter,
            first.config,
        )

    def fused(self, query: str, *, exclude: frozenset[str]) -> list[Fused]:
        """BM25 over the union (in a thread) and the union's nearest chunks, fused by RRF, best first."""
        n = self.config.candidates
        sparse_future = _pool().submit(self.sparse_ranking, query, n=n, exclude=exclude)
        dense_ids = [
            chunk_id for chunk_id, _ in self.dense_ranking(self.embedder.embed_query(query), n=n, exclude=exclude)
        ]
        sparse_ids = [chunk_id for chunk_id, _ in sparse_future.result()]
        languages = {member.sparse.language() for member in self.members}
        weights = self.config.weights("en" if "en" in languages else languages.pop())  # English when any is
        return rrf({"bm25": sparse_ids, "dense": dense_ids}, k=self.config.rrf_k, weights=weights)

    def sparse_ranking(self, query: str, *, n: int, exclude: frozenset[str]) -> list[tuple[str, float]]:
        """The union's ``n`` best (chunk id, BM25 score) pairs."""
        snapshots = [s for s in (member.sparse.snapshot() for member in self.members) if s is not None]
        return shared_bm25.query(snapshots, query, n=n, exclude=exclude)

    def dense_ranking(self, vector: Vectors, *, n: int, exclude: frozenset[str]) -> list[tuple[str, float]]:
        """The union's ``n`` nearest (chunk id, cosine distance) pairs, nearest first, each id once."""
        pairs = [pair for member in self.members for pair in member.dense.query_scored(vector, n=n, exclude=exclude)]
        pairs.sort(key=lambda pair: (pair[1], pair[0]))  # equal distances: by chunk id
        return _first_each(pairs)[:n]

    def hydrate(self, fused: Sequence[Fused]) -> list[ScoredChunk]:
        """The chunks of ``fused`` ids, asked of each corpus in turn for the ids not found yet."""
        found: dict[str, Chunk] = {}
        missing = [f.item_id for f in fused]
        for member in self.members:
            if not missing:
                break
            found |= member.chunks_by_id(missing)
            missing = [chunk_id for chunk_id in missing if chunk_id not in found]
        return [ScoredChunk(found[f.item_id], f.score, f.ranks) for f in fused if f.item_id in found]

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        """The document's chunks in the first corpus that holds it."""
        for member in self.members:
            if chunks := member.document_chunks(doc_id):
                return chunks
        return []

    def grep_matches(self, pattern: str, *, exclude: frozenset[str]) -> list[Chunk]:
        """The first ``grep_limit`` matches of every corpus, merged in document order (doc id, then position)."""
        limit = self.config.grep_limit
        matches: dict[str, Chunk] = {}
        for member in self.members:
            for chunk in member.grep_matches(pattern, exclude=exclude):
                matches.setdefault(chunk.chunk_id, chunk)
        return sorted(matches.values(), key=lambda c: (c.doc_id, c.index))[:limit]


def _first_each(pairs: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """``pairs`` with each id kept at its first occurrence."""
    seen: dict[str, float] = {}
    for chunk_id, distance in pairs:
        seen.setdefault(chunk_id, distance)
    return list(seen.items())
