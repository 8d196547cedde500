"""bench_schedules: due schedules fired once each by two concurrent ticks, busy ones skipped, every run executed
with its digest made and e-mailed to the investigation's readers; the trial workspace is gone afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from research.models import Run, Schedule, Workspace

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_benchmark_fires_each_due_schedule_once_and_sends_the_digests(tmp_path: Path) -> None:
    target = tmp_path / "schedules.json"
    call_command("bench_schedules", json=target, schedules=6, busy=2, files=2)
    figures = json.loads(target.read_text())
    assert (figures["fired"], figures["skipped"], figures["duplicated"]) == (4, 2, 0)
    assert figures["runs_not_finished"] == 0
    assert (figures["digests_made"], figures["digests_sent"]) == (4, 4)  # first runs: everything is new
    assert figures["emails_sent"] == 4 * figures["readers_per_investigation"]
    # The ratio is taken before the seconds are rounded to 4 places; it must lie within what that rounding allows.
    seconds, baseline, half = figures["seconds_to_enqueue_all"], figures["baseline_seconds"], 0.00005
    assert (seconds - half) / (baseline + half) - 0.005 <= figures["tick_vs_baseline"]
    assert figures["tick_vs_baseline"] <= (seconds + half) / (baseline - half) + 0.005
    assert not Workspace.objects.exists()
    assert not Run.objects.exists()
    assert not Schedule.objects.exists()
    assert not User.objects.filter(username__startswith="bench-reader-").exists()
