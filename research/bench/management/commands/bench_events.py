"""`manage.py bench_events`: run-event latency from a worker's sink to WebSocket clients, against a baseline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from research.bench.events import BenchSettings, bench_events

_TARGETS = {"p95_ms": "< 100 ms", "lost": "0", "duplicated": "0"}


class Command(BaseCommand):
    help = (
        "Stream events of concurrent runs from a real worker through Redis and Daphne to real WebSocket clients; "
        "print sink-to-socket latency (ours and the no-database baseline) and write JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        defaults = BenchSettings()
        parser.add_argument("--json", required=True, type=Path, help="where to write the figures")
        parser.add_argument("--runs", type=int, default=defaults.runs, help="concurrent runs (one client each)")
        parser.add_argument("--events", type=int, default=defaults.events, help="events per run")
        parser.add_argument(
            "--interval-ms", type=float, default=defaults.interval_ms, help="milliseconds between a run's events"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bench = BenchSettings(runs=options["runs"], events=options["events"], interval_ms=options["interval_ms"])
        figures = bench_events(bench)
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        baseline = figures["baseline"]
        self.stdout.write(f"{bench.runs} runs x {bench.events} events, one every {bench.interval_ms:g} ms per run")
        self.stdout.write(f"{'':<14}{'ours (stored first)':>22}{'baseline (no database)':>26}")
        for key in ("p50_ms", "p95_ms", "p99_ms", "max_ms", "lost", "duplicated", "events_per_s"):
            target = f"  (target {_TARGETS[key]})" if key in _TARGETS else ""
            self.stdout.write(f"{key:<14}{_shown(figures[key]):>22}{_shown(baseline[key]):>26}{target}")
        self.stdout.write(f"ratio ours/baseline: p50 {figures['ratio_p50']}x, p95 {figures['ratio_p95']}x")
        self.stdout.write(f"stored events intact: {figures['stored_intact']}; baseline: {baseline['name']}")
        self.stdout.write(f"figures written to {path}")


def _shown(value: object) -> str:
    return "-" if value is None else (f"{value:,.2f}" if isinstance(value, float) else f"{value:,}")
