"""`manage.py bench_load` end to end: real runs of the slowed offline model through a real worker, Redis and
Daphne, watched by real WebSocket viewers in the page's html format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

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


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the production topology runs on PostgreSQL")
def test_the_production_topology_measures_one_web_and_worker_against_two(
    bench_command_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32 (5): 1 web + 1 prefork runs worker, then 2 + 2 with the viewers spread over both web processes, a
    Chroma server started by the command; both sizes' levels and the ratio of the second to the first."""
    path = bench_command_env / "production.json"
    tiny = ["--runs", "1", "--viewers", "2", "--model-delay", "0.05", "--max-turns", "4", "--rollouts", "2"]
    call_command("bench_load", "--topology", "production", *tiny, "--json", str(path))
    figures = json.loads(path.read_text())
    one, two = figures["sizes"]["1 web + 1 worker"], figures["sizes"]["2 web + 2 workers"]
    for size in (one, two):
        (level,) = size["levels"]
        assert (level["runs"], level["viewers_per_run"], level["runs_finished"]) == (1, 2, 1), level["errors"]
        assert level["lost"] == level["duplicated"] == 0  # the viewer on the second web process got every event
        assert level["frames_received"] >= 2 * level["events_stored"] > 20
    assert {"daphne-1", "worker-1"} <= set(one["levels"][0]["cpu_s"])
    assert "daphne-2" not in one["levels"][0]["cpu_s"]
    assert {"daphne-1", "daphne-2", "worker-1", "worker-2"} <= set(two["levels"][0]["cpu_s"])
    assert two["levels"][0]["cpu_s"]["daphne-2"] > 0
    (ratio,) = figures["second_process"]["levels"]
    assert ratio["p95_ratio"] == round(two["levels"][0]["p95_ms"] / one["levels"][0]["p95_ms"], 2)
    assert figures["settings"] | {"topology": "production", "worker_pool": "prefork"} == figures["settings"]
    assert not Workspace.objects.filter(name__startswith="Load benchmark").exists()
    out = capsys.readouterr().out
    assert "2 web + 2 workers over 1 + 1" in out
    assert "limit (runs x viewers) ratio" in out


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor == "postgresql", reason="the refusal is of SQLite")
def test_the_production_topology_refuses_sqlite(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="needs PostgreSQL"):
        call_command("bench_load", "--topology", "production", "--json", str(tmp_path / "load.json"))
    assert not Workspace.objects.filter(name__startswith="Load benchmark").exists()
