"""The retrieval benchmarks: speed (synthetic corpora, ours against the LangChain-style baseline) and quality."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from chromadb.api import ClientAPI

from research.bench import quality, synthetic
from research.bench.baseline import LangChainStyleHybrid
from research.bench.measure import Stopwatch, peak_rss_mb
from research.bench.speed import (
    EmbedRate,
    Latency,
    SpeedOptions,
    baseline_query_count,
    embed_rate,
    ingest,
    latency,
)
from research.evaluation.datasets import load_dataset
from research.evaluation.indexing import discard, index_documents, open_corpus
from research.retrieval.chroma_client import open_client
from research.retrieval.embedders import Embedder
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.tokens import TokenCounter, packaged_counter

Progress = Callable[[str], None]
QualityDataset = Literal["musique", "hotpotqa"]
QUALITY_FILES: dict[QualityDataset, str] = {
    "musique": "musique/musique_train100.json",
    "hotpotqa": "hotpotqa/hotpotqa_train100.json",
}
EMBEDDER_NOTE = (
    "{embedder} embeds {sample} synthetic chunks at {rate:.1f} chunks/s (embedding {largest} chunks would take "
    "{largest_s:.0f} s), so the indexes hold vectors from a fast stand-in ({stand_in}, same dimension, so "
    "Chroma's HNSW does the same work). ingest_chunks_per_s = chunks / (measured chunking + Chroma upsert + "
    "bm25s rebuild time + chunks / the measured {embedder} rate); embed_time_share is the embedding part of that "
    "time; ingest_measured_chunks_per_s is the raw rate measured with the stand-in. Queries are embedded by "
    "{embedder} (so dense hits are not meaningful, only their cost)."
)
BASELINE_NOTE = (
    "LangChain-style: rank_bm25.BM25Okapi over text.split() (LangChain's default preprocessing: no lower-casing "
    "or stemming), get_top_n 50, then the same Chroma query (50), one after the other, weighted RRF (c=60, "
    "weights 0.5/0.5, dedup by text) as EnsembleRetriever. Ours: HybridCorpus.search (bm25s and Chroma in "
    "parallel, RRF, fetch of BM25-only hits, token-budget packing; no reranker)."
)


def _dimension(embedder: Embedder) -> int:
    return int(embedder.embed_query("dimension probe").shape[-1])


@dataclass(frozen=True)
class _Measured:
    chunks: int
    watch: Stopwatch
    timings: Latency
    baseline_build_s: float


@dataclass(frozen=True)
class _Setup:
    client: ClientAPI
    folder: Path
    embedder: Embedder
    counter: TokenCounter
    options: SpeedOptions
    progress: Progress


def _measure(n: int, setup: _Setup) -> _Measured:
    embedder, counter, options, progress = setup.embedder, setup.counter, setup.options, setup.progress
    texts = synthetic.chunks(n, seed=options.seed)
    corpus = open_corpus(setup.client, setup.folder, embedder=embedder, counter=counter, label=str(n))
    try:
        progress(f"[{n}] ingesting: chunk, stand-in embed, Chroma upsert, bm25s rebuild")
        stand_in = HashingEmbedder(dimension=_dimension(embedder))
        chunks, watch = ingest(corpus, texts, stand_in=stand_in, counter=counter, chunk_tokens=options.chunk_tokens)
        del texts
        progress(f"[{n}] building the baseline's rank_bm25 index")
        build_start = time.perf_counter()
        baseline = LangChainStyleHybrid(chunks, dense=corpus.dense, embedder=embedder)
        build_s = time.perf_counter() - build_start
        queries = synthetic.queries(options.queries + options.warmup_queries, seed=options.seed)
        count = baseline_query_count(corpus, baseline, queries[: options.warmup_queries], options)
        progress(f"[{n}] timing {options.queries} queries (the baseline: {count})")
        timings = latency(corpus, baseline, queries[options.warmup_queries :], baseline_queries=count)
    finally:
        discard(corpus)
    return _Measured(len(chunks), watch, timings, build_s)


def _speed_record(measured: _Measured, rate: EmbedRate) -> dict[str, Any]:
    watch, timings, n = measured.watch, measured.timings, measured.chunks
    non_embed = watch.total("chunk", "upsert", "bm25_rebuild")
    embed_s = n / rate.chunks_per_s
    ours_p50, baseline_p50 = timings.p50_ms("ours"), timings.p50_ms("baseline")
    return {
        "chunks": n,
        "queries": len(timings.ours),
        "baseline_queries": len(timings.baseline),
        "ours_p50_ms": ours_p50,
        "ours_p95_ms": timings.p95_ms("ours"),
        "baseline_p50_ms": baseline_p50,
        "baseline_p95_ms": timings.p95_ms("baseline"),
        "speedup_p50": round(baseline_p50 / ours_p50, 2),
        "bm25_p50_ms": timings.p50_ms("bm25s"),
        "baseline_bm25_p50_ms": timings.p50_ms("rank_bm25"),
        "dense_p50_ms": timings.p50_ms("dense"),
        "query_embed_p50_ms": timings.p50_ms("query_embed"),
        "candidates_p50_ms": timings.p50_ms("candidates"),
        "pack_p50_ms": timings.p50_ms("pack"),
        "ingest_chunks_per_s": round(n / (non_embed + embed_s), 1),
        "ingest_measured_chunks_per_s": round(n / (non_embed + watch.total("embed")), 1),
        "embed_time_share": round(embed_s / (non_embed + embed_s), 4),
        "ingest_seconds": {
            "chunking": round(watch.total("chunk"), 2),
            "embedding_computed": round(embed_s, 2),
            "embedding_stand_in_measured": round(watch.total("embed"), 2),
            "chroma_upsert": round(watch.total("upsert"), 2),
            "bm25s_rebuild": round(watch.total("bm25_rebuild"), 2),
        },
        "baseline_index_build_s": round(measured.baseline_build_s, 2),
        "peak_rss_mb": peak_rss_mb(),
    }


def _speed_run(n: int, setup: _Setup, rate: EmbedRate) -> dict[str, Any]:
    started = time.perf_counter()
    record = _speed_record(_measure(n, setup), rate)
    return {**record, "wall_s": round(time.perf_counter() - started, 1)}


def speed_benchmark(
    sizes: Sequence[int],
    *,
    workdir: Path,
    embedder: Embedder,
    options: SpeedOptions | None = None,
    counter: TokenCounter | None = None,
    progress: Progress = lambda _: None,
) -> dict[str, Any]:
    """Measure ingestion and search speed for each corpus size; everything is built under ``workdir``."""
    options, counter = options or SpeedOptions(), counter or packaged_counter()
    started = time.perf_counter()
    progress(f"measuring {embedder.name} on {options.embed_sample} chunks")
    sample = synthetic.chunks(options.embed_sample, seed=options.seed + 1)
    rate = embed_rate(embedder, sample)
    tokens = counter.count_many(sample)
    client = open_client(url=None, path=workdir / "chroma")
    setup = _Setup(client, workdir / "bm25", embedder, counter, options, progress)
    runs = [_speed_run(n, setup, rate) for n in sizes]
    return {
        "benchmark": "speed",
        "embedder": embedder.name,
        "embed_chunks_per_s": round(rate.chunks_per_s, 2),
        "embed_sample": rate.sample,
        "embed_sample_tokens_mean": round(sum(tokens) / max(1, len(tokens)), 1),
        "embedder_note": EMBEDDER_NOTE.format(
            embedder=embedder.name,
            sample=rate.sample,
            rate=rate.chunks_per_s,
            largest=max(sizes),
            largest_s=max(sizes) / rate.chunks_per_s,
            stand_in=f"hashing-{_dimension(embedder)}",
        ),
        "baseline_note": BASELINE_NOTE,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "runs": runs,
        **runs[-1],
        "total_wall_s": round(time.perf_counter() - started, 1),
    }


def quality_benchmark(
    dataset: QualityDataset,
    *,
    data_dir: Path,
    workdir: Path,
    embedder: Embedder,
    counter: TokenCounter | None = None,
    progress: Progress = lambda _: None,
) -> dict[str, Any]:
    """Recall@10 and @50 of supporting documents for BM25, dense and hybrid on one dataset."""
    started, counter = time.perf_counter(), counter or packaged_counter()
    tasks, docs = load_dataset(dataset, data_dir / QUALITY_FILES[dataset])
    client = open_client(url=None, path=workdir / "chroma")
    corpus = open_corpus(client, workdir / "bm25", embedder=embedder, counter=counter, label=dataset)
    try:
        progress(f"indexing {len(docs)} documents of {dataset} with {embedder.name}")
        chunks = index_documents(corpus, docs, counter=counter)
        progress(f"querying {len(tasks)} questions")
        recalls = quality.mean_recalls(corpus, tasks, (10, 50))
    finally:
        discard(corpus)
    return {
        "benchmark": "quality",
        "dataset": dataset,
        "tasks": sum(1 for task in tasks if task.supporting_doc_ids),
        "documents": len(docs),
        "chunks": chunks,
        "embedder": embedder.name,
        "indexed_text": "title, newline, text; chunked at 512 word pieces",
        "recall_at_10": asdict(recalls[10]),
        "recall_at_50": asdict(recalls[50]),
        "wall_s": round(time.perf_counter() - started, 1),
    }
