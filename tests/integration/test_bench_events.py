"""`manage.py bench_events` end to end: a small run through real Daphne, a real worker and Redis."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.services


def test_the_command_streams_through_the_real_stack_and_writes_its_figures(
    bench_command_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = bench_command_env / "events.json"
    call_command("bench_events", "--runs", "2", "--events", "30", "--interval-ms", "5", "--json", str(path))
    figures = json.loads(path.read_text())
    assert (figures["runs"], figures["events"]) == (2, 30)
    assert figures["lost"] == figures["duplicated"] == 0
    assert figures["baseline"]["lost"] == figures["baseline"]["duplicated"] == 0
    assert figures["stored_intact"] is True
    assert figures["p95_ms"] >= figures["p50_ms"] > 0
    assert "no database write" in figures["baseline"]["name"]
    ratio = figures["p95_ms"] / figures["baseline"]["p95_ms"]
    assert figures["ratio_p95"] == pytest.approx(ratio, rel=0.01, abs=0.006)  # rounded to 0.01 (0.38 vs 0.3757)
    out = capsys.readouterr().out
    assert "p95_ms" in out
    assert "ratio ours/baseline" in out
