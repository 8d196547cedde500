"""`manage.py bench_load` end to end: real runs of the slowed offline model through a real worker, Redis and
Daphne, watched by real WebSocket viewers in the page's html format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from research.models import Run, Workspace

pytestmark = pytest.mark.services


def test_the_command_runs_each_level_and_accounts_for_every_event(
    bench_command_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = bench_command_env / "load.json"
    levels = ["--runs", "1,2", "--viewers", "1,2"]
    call_command("bench_load", *levels, "--model-delay", "0.05", "--max-turns", "4", "--json", str(path))
    figures = json.loads(path.read_text())
    levels = figures["levels"]
    assert [(level["runs"], level["viewers_per_run"]) for level in levels] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    for level in [figures["baseline"], *levels]:
        assert level["runs_finished"] == level["runs"], level["errors"]
        assert level["errors"] == []
        assert level["lost"] == level["duplicated"] == 0
        assert level["events_stored"] > 10 * level["runs"]  # a 4-rollout run says far more than ten things
        assert level["frames_received"] >= level["events_stored"] * level["viewers_per_run"]
        assert level["p95_ms"] >= level["p50_ms"] > 0
        assert set(level["cpu_s"]) >= {"daphne", "worker", "clients"}
        assert level["peak_rss_mb"]["worker"] > 0
    assert figures["settings"]["format"] == "html"
    assert figures["baseline"]["name"].startswith("1 run x 1 viewer")
    assert not Workspace.objects.filter(name__startswith="Load benchmark").exists()
    assert not Run.objects.exists()
    out = capsys.readouterr().out
    assert "largest level holding p95 < 250 ms" in out
