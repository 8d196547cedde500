"""The figures `manage.py bench_events` reports (the command itself: tests/integration/test_bench_events.py)."""

from __future__ import annotations

from research.bench.events import Received, summarise


def test_lost_and_duplicated_count_sequence_numbers_not_messages() -> None:
    runs = [Received(seqs=[1, 2, 2, 3], latencies_ms=[10.0, 20.0, 30.0]), Received(seqs=[1], latencies_ms=[40.0])]
    figures = summarise(runs, expected=3)
    assert figures["lost"] == 2
    assert figures["duplicated"] == 1
    assert figures["max_ms"] == 40.0
    assert figures["p50_ms"] == 25.0
