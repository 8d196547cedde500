from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from research.bench.quality import distinct_documents, recall_at
from research.bench.retrieval import quality_benchmark, speed_benchmark
from research.bench.speed import SpeedOptions
from research.bench.tables import quality_table, speed_table
from research.retrieval.embedders.hashing import HashingEmbedder

REQUIRED = (
    "chunks",
    "ours_p50_ms",
    "ours_p95_ms",
    "baseline_p50_ms",
    "baseline_p95_ms",
    "speedup_p50",
    "bm25_p50_ms",
    "ingest_chunks_per_s",
    "embed_time_share",
    "peak_rss_mb",
)
TINY = SpeedOptions(queries=6, embed_sample=40, warmup_queries=1)


@pytest.fixture(scope="module")
def speed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    workdir = tmp_path_factory.mktemp("speed")
    return speed_benchmark([200, 300], workdir=workdir, embedder=HashingEmbedder(dimension=384), options=TINY)


def test_speed_reports_every_key_per_size_and_the_largest_at_top_level(speed: dict[str, Any]) -> None:
    assert [run["chunks"] for run in speed["runs"]] == [200, 300]
    for key in REQUIRED:
        assert key in speed, key
        assert speed[key] == speed["runs"][-1][key]
    assert speed["embedder"] == "hashing-384"
    assert "stand-in" in speed["embedder_note"]
    assert "rank_bm25" in speed["baseline_note"]


def test_speed_figures_are_sane(speed: dict[str, Any]) -> None:
    for run in speed["runs"]:
        assert run["ours_p95_ms"] >= run["ours_p50_ms"] > 0
        assert run["baseline_p95_ms"] >= run["baseline_p50_ms"] > 0
        assert run["speedup_p50"] == pytest.approx(run["baseline_p50_ms"] / run["ours_p50_ms"], abs=0.006)
        assert run["bm25_p50_ms"] > 0
        assert run["queries"] == run["baseline_queries"] == 6
        assert 0 < run["embed_time_share"] < 1
        assert run["ingest_chunks_per_s"] > 0
        assert run["ingest_measured_chunks_per_s"] > 0
        assert run["peak_rss_mb"] > 0
    computed = speed["runs"][-1]
    seconds = computed["ingest_seconds"]
    expected_share = seconds["embedding_computed"] / (
        seconds["chunking"] + seconds["chroma_upsert"] + seconds["bm25s_rebuild"] + seconds["embedding_computed"]
    )
    assert computed["embed_time_share"] == pytest.approx(expected_share, abs=0.02)
    assert seconds["embedding_computed"] == pytest.approx(300 / speed["embed_chunks_per_s"], rel=0.02, abs=0.01)


def test_speed_table_shows_each_size(speed: dict[str, Any]) -> None:
    table = speed_table(speed)
    assert "200" in table.splitlines()[0]
    assert "300" in table.splitlines()[0]
    assert "speedup at p50" in table


def test_recall_counts_distinct_gold_documents_in_the_top_k() -> None:
    ranked = distinct_documents(["a#0", "a#1", "b#0", "c#2", "b#1"])
    assert ranked == ["a", "b", "c"]
    assert recall_at(["b", "z"], ranked, 1) == 0.0
    assert recall_at(["b", "z"], ranked, 2) == 0.5
    assert recall_at(["b", "c"], ranked, 10) == 1.0
    with pytest.raises(ValueError, match="no recall"):
        recall_at([], ranked, 10)


@pytest.mark.parametrize("dataset", ["musique", "hotpotqa"])
def test_quality_reports_recall_per_retriever(dataset: str, eval_data: Path, tmp_path: Path) -> None:
    result = quality_benchmark(
        "musique" if dataset == "musique" else "hotpotqa",
        data_dir=eval_data,
        workdir=tmp_path,
        embedder=HashingEmbedder(dimension=384),
    )
    assert (result["dataset"], result["tasks"]) == (dataset, 100)
    assert result["chunks"] >= result["documents"] > 900
    for name in ("bm25", "dense", "hybrid"):
        assert 0 <= result["recall_at_10"][name] <= result["recall_at_50"][name] <= 1
    assert result["recall_at_50"]["bm25"] > 0.3  # the questions name their entities: BM25 must find many
    assert "recall@10" in quality_table(result)
