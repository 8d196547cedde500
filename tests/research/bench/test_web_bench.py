"""bench_web: pages fetched cold, warm (not asked again) and revalidated (304), searchable after their fetch, a
web run's fetching measured; the trial workspace is gone afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from research.bench.web_sources import covered
from research.models import Workspace

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_benchmark_fetches_cold_warm_and_revalidated(tmp_path: Path) -> None:
    target = tmp_path / "web.json"
    call_command("bench_web", json=target, pages=4)
    figures = json.loads(target.read_text())
    assert figures["outcomes"] == {"cold": {"fetched": 4}, "warm": {"cached": 4}, "revalidated": {"unchanged": 4}}
    assert figures["warm_pages_per_second"] > figures["cold_pages_per_second"] > 0
    assert figures["seconds_to_searchable_median"] > 0
    run = figures["web_run"]
    assert run["fetches"] >= 1
    assert 0 < run["fetch_share"] <= 1
    assert not Workspace.objects.exists()


def test_concurrent_fetches_count_once() -> None:
    assert covered([(0.0, 1.0), (0.5, 1.5), (3.0, 4.0)]) == pytest.approx(2.5)
    assert covered([]) == 0.0
