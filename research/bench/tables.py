"""Plain-text tables of benchmark results, for the terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SPEED_ROWS = (
    ("search p50 / p95, ours (ms)", "ours_p50_ms", "ours_p95_ms"),
    ("search p50 / p95, baseline (ms)", "baseline_p50_ms", "baseline_p95_ms"),
    ("speedup at p50 (baseline / ours)", "speedup_p50", None),
    ("queries timed: ours / baseline", "queries", "baseline_queries"),
    ("BM25 p50: bm25s / rank_bm25 (ms)", "bm25_p50_ms", "baseline_bm25_p50_ms"),
    ("dense query p50 (ms)", "dense_p50_ms", None),
    ("query embedding p50 (ms)", "query_embed_p50_ms", None),
    ("ours: candidates + RRF / packing p50 (ms)", "candidates_p50_ms", "pack_p50_ms"),
    ("ingest chunks/s, with the embedder's rate", "ingest_chunks_per_s", None),
    ("ingest chunks/s, measured with the stand-in", "ingest_measured_chunks_per_s", None),
    ("embedding share of ingest time", "embed_time_share", None),
    ("baseline rank_bm25 index build (s)", "baseline_index_build_s", None),
    ("peak RSS so far (MiB)", "peak_rss_mb", None),
    ("wall time (s)", "wall_s", None),
)


def _cell(run: Mapping[str, Any], first: str, second: str | None) -> str:
    return f"{run[first]}" if second is None else f"{run[first]} / {run[second]}"


def grid(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned first column, right-aligned others, columns two spaces apart."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        return "  ".join(cells).rstrip()

    return "\n".join([line(header), line(["-" * width for width in widths]), *(line(row) for row in rows)])


def speed_table(result: Mapping[str, Any]) -> str:
    runs: list[Mapping[str, Any]] = result["runs"]
    header = ["chunks", *(f"{run['chunks']:,}" for run in runs)]
    rows = [[label, *(_cell(run, first, second) for run in runs)] for label, first, second in SPEED_ROWS]
    ingest = [
        [f"  ingest {stage} (s)", *(f"{run['ingest_seconds'][stage]}" for run in runs)]
        for stage in runs[0]["ingest_seconds"]
    ]
    rate = f"{result['embedder']}: {result['embed_chunks_per_s']} chunks/s on {result['embed_sample']} chunks"
    return "\n\n".join([grid(header, rows + ingest), rate, result["embedder_note"], result["baseline_note"]])


def quality_table(result: Mapping[str, Any]) -> str:
    header = ["retriever", "recall@10", "recall@50"]
    rows = [
        [name, f"{result['recall_at_10'][name]:.3f}", f"{result['recall_at_50'][name]:.3f}"]
        for name in result["recall_at_10"]
    ]
    title = (
        f"{result['dataset']}: {result['tasks']} tasks, {result['documents']} documents ({result['chunks']} chunks),"
        f" {result['embedder']}"
    )
    return f"{title}\n\n{grid(header, rows)}"
