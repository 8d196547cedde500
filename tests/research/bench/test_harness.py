"""The harness benchmarks on tiny sizes: every figure is produced and sane (no wall-clock thresholds)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from django.core.management import call_command

from research.bench.harness import BenchBackend, BenchSettings, FillingPolicy, bench_corpus, bench_harness, timed_run
from research.harness.run import estimate_tokens
from research.protocol.events import ChunksPruned, RolloutFinished, ToolReturned, TurnRecorded

TINY = BenchSettings(
    budget=6000, turns=8, chunk_tokens=100, search_tokens=400, latency_s=0.01, rollout_turns=3, prune_repeats=2
)
KEYS = {
    "overhead_ms_per_turn",
    "overhead_ms_per_turn_p50",
    "overhead_ms_per_turn_full_context_p50",
    "overhead_turns",
    "full_context_turns",
    "context_tokens_max",
    "context_tokens_final",
    "prune_ms",
    "prune_chunks",
    "prune_context_tokens",
    "peak_memory_mb_per_run",
    "rollout1_wall_s",
    "rollouts4_wall_s",
    "rollouts4_wall_ratio",
    "settings",
}


def test_the_bench_corpus_honours_exclusions_and_the_budget_and_counts_its_hits() -> None:
    corpus = bench_corpus(chunks=30, chunk_tokens=50, count=estimate_tokens, counter_name="estimate")
    first = corpus.search("a", exclude=frozenset(), budget=200)
    assert 1 <= len(first.hits) <= 3
    assert all(hit.counter == "estimate" and hit.tokens == corpus.costs[hit.chunk_id] for hit in first.hits)
    assert sum(hit.tokens or 0 for hit in first.hits) <= 200
    seen = frozenset(h.chunk_id for h in first.hits)
    again = corpus.search("a", exclude=seen, budget=200)
    assert again.hits
    assert not seen & {h.chunk_id for h in again.hits}
    assert corpus.search("a", exclude=frozenset(), budget=10).hits == ()
    assert corpus.search("b", exclude=frozenset(), budget=200).hits[0] != first.hits[0]  # another place


def test_the_filling_policy_fills_the_context_then_prunes_and_completes() -> None:
    policy = FillingPolicy(TINY)
    backend = BenchBackend(policy)
    _, sink = timed_run(
        TINY, bench_corpus(chunks=100, chunk_tokens=100, count=estimate_tokens), estimate_tokens, [backend]
    )
    assert len(backend.stamps) == TINY.turns
    assert [e.reason for e in sink.events if isinstance(e, RolloutFinished)] == ["completed"]
    assert any(isinstance(e, ChunksPruned) for e in sink.events)
    assert not [e.error for e in sink.events if isinstance(e, ToolReturned) and e.error]
    contexts = [e.context_tokens for e in sink.events if isinstance(e, TurnRecorded)]
    assert max(contexts) >= TINY.budget * TINY.fill_fraction
    assert max(contexts) <= TINY.budget


def test_every_figure_is_produced_and_sane() -> None:
    figures = bench_harness(TINY, estimate_tokens, counter_name="estimate")
    assert set(figures) == KEYS
    assert figures["overhead_turns"] == TINY.turns
    assert figures["overhead_ms_per_turn"] > 0
    assert figures["overhead_ms_per_turn_p50"] > 0
    assert figures["full_context_turns"] >= 1
    assert figures["prune_chunks"] == TINY.search_tokens // TINY.chunk_tokens + 1
    assert figures["prune_context_tokens"] > TINY.budget * 0.9
    assert figures["prune_ms"] > 0
    assert figures["peak_memory_mb_per_run"] > 0
    assert figures["rollouts4_wall_ratio"] == figures["rollouts4_wall_s"] / figures["rollout1_wall_s"]
    assert figures["settings"]["counter"] == "estimate"


def test_the_bench_harness_command_writes_json(tmp_path: Path) -> None:
    out, target = io.StringIO(), tmp_path / "bench.json"
    call_command(
        "bench_harness",
        json=str(target),
        budget=6000,
        turns=6,
        chunk_tokens=100,
        latency=0.01,
        rollout_turns=2,
        counter="estimate",
        stdout=out,
    )
    figures = json.loads(target.read_text())
    assert set(figures) == KEYS
    assert figures["settings"]["budget"] == 6000
    assert "rollouts4_wall_ratio" in out.getvalue()
    assert "(target < 5 ms)" in out.getvalue()
