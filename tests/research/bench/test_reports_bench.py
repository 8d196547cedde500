"""bench_reports: both runs finish on the demo corpus, the ratio is computed from the same run's figures, and
the trial workspace is gone afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from research.models import Run, Workspace

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_benchmark_times_a_report_against_a_question(tmp_path: Path) -> None:
    target = tmp_path / "reports.json"
    call_command("bench_reports", json=target, repeats=1, latency=[0.0], max_turns=2)
    figures = json.loads(target.read_text())
    (row,) = figures["rows"]
    assert row["question_s"] > 0
    assert row["report_s"] > 0
    # The ratio is taken before the seconds are rounded to 3 places; it must lie within what that rounding allows.
    report, question, half = row["report_s"], row["question_s"], 0.0005
    assert (report - half) / (question + half) - 0.005 <= row["report_vs_question"]
    assert row["report_vs_question"] <= (report + half) / (question - half) + 0.005
    assert "one free question run" in figures["baseline"]
    assert not Workspace.objects.exists()  # the trial workspace is deleted, runs with it
    assert not Run.objects.exists()
