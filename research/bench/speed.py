"""Speed measurements on one index: embedding rate, ingestion stages, and search latency against the baseline."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from research.bench.baseline import LangChainStyleHybrid
from research.bench.measure import Stopwatch, percentile_ms
from research.evaluation.indexing import CHUNK_TOKENS, document_chunks
from research.retrieval.corpus import HybridCorpus
from research.retrieval.embedders import Embedder
from research.retrieval.tokens import TokenCounter
from research.retrieval.types import Chunk

INGEST_BATCH = 1000  # chunks embedded and upserted together
MIN_BASELINE_QUERIES = 10
NOTHING: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SpeedOptions:
    queries: int = 50
    embed_sample: int = 1000
    chunk_tokens: int = CHUNK_TOKENS
    baseline_budget_s: float = 300.0  # time the baseline's timed queries may take; at least 10 queries run
    warmup_queries: int = 3
    seed: int = 1


@dataclass(frozen=True)
class EmbedRate:
    chunks_per_s: float
    sample: int
    seconds: float


@dataclass(frozen=True)
class Latency:
    ours: list[float]  # seconds per HybridCorpus.search
    baseline: list[float]  # seconds per LangChainStyleHybrid.search
    bm25s: list[float]
    rank_bm25: list[float]
    dense: list[float]
    query_embed: list[float]
    candidates: list[float]  # HybridCorpus.fused: both retrievers (ids only) and RRF
    pack: list[float]  # HybridCorpus.pack_fused: fetching the chunks it keeps and packing them in the budget

    def p50_ms(self, name: str) -> float:
        values: list[float] = getattr(self, name)
        return round(percentile_ms(values, 50), 3)

    def p95_ms(self, name: str) -> float:
        values: list[float] = getattr(self, name)
        return round(percentile_ms(values, 95), 3)


def embed_rate(embedder: Embedder, texts: Sequence[str]) -> EmbedRate:
    """Documents per second of ``embedder`` on ``texts``, after a warm-up batch (model load, first call)."""
    embedder.embed_documents(list(texts[:8]))
    start = time.perf_counter()
    embedder.embed_documents(list(texts))
    seconds = time.perf_counter() - start
    return EmbedRate(len(texts) / seconds, len(texts), seconds)


def ingest(
    corpus: HybridCorpus, texts: Sequence[str], *, stand_in: Embedder, counter: TokenCounter, chunk_tokens: int
) -> tuple[list[Chunk], Stopwatch]:
    """Our ingestion path, stage by stage: chunk, embed (with ``stand_in``), Chroma upsert, bm25s rebuild."""
    watch = Stopwatch()
    chunks: list[Chunk] = []
    for start in range(0, len(texts), INGEST_BATCH):
        with watch.timing("chunk"):
            batch = [
                chunk
                for number, text in enumerate(texts[start : start + INGEST_BATCH], start=start)
                for chunk in document_chunks(f"syn-{number:07d}", text, counter=counter, max_tokens=chunk_tokens)
            ]
            batch = corpus.counted(batch)
        with watch.timing("embed"):
            vectors = stand_in.embed_documents([chunk.text for chunk in batch])
        with watch.timing("upsert"):
            corpus.dense.upsert(batch, vectors)
        chunks.extend(batch)
    with watch.timing("bm25_rebuild"):
        corpus.refresh_sparse()
    return chunks, watch


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def baseline_query_count(
    corpus: HybridCorpus, baseline: LangChainStyleHybrid, queries: Sequence[str], options: SpeedOptions
) -> int:
    """Warm both up on ``queries``; how many timed baseline queries fit the budget (each runs its BM25 twice)."""
    slowest = 0.0
    for query in queries:
        corpus.search(query)
        slowest = max(slowest, _timed(partial(baseline.search, query)))
    affordable = int(options.baseline_budget_s / max(2 * slowest, 1e-9))
    return min(options.queries, max(MIN_BASELINE_QUERIES, affordable))


def latency(
    corpus: HybridCorpus, baseline: LangChainStyleHybrid, queries: Sequence[str], *, baseline_queries: int
) -> Latency:
    """Per query: ours and the baseline end to end (alternating which goes first), then each component alone."""
    result = Latency([], [], [], [], [], [], [], [])
    n = corpus.config.candidates
    for number, query in enumerate(queries):
        runs: list[tuple[list[float], Callable[[], object]]] = [(result.ours, partial(corpus.search, query))]
        if number < baseline_queries:
            runs.append((result.baseline, partial(baseline.search, query)))
            result.rank_bm25.append(_timed(partial(baseline.bm25, query)))
        for into, call in runs if number % 2 == 0 else runs[::-1]:
            into.append(_timed(call))
        result.bm25s.append(_timed(partial(corpus.sparse.query, query, n=n, exclude=NOTHING)))
        start = time.perf_counter()
        vector = corpus.embedder.embed_query(query)
        result.query_embed.append(time.perf_counter() - start)
        result.dense.append(_timed(partial(corpus.dense.query, vector, n=n, exclude=NOTHING)))
        start = time.perf_counter()
        fused = corpus.fused(query, exclude=NOTHING)
        result.candidates.append(time.perf_counter() - start)
        result.pack.append(_timed(partial(corpus.pack_fused, query, fused)))
    return result
