"""`manage.py bench_api`: the API's server-sent events against the page's WebSocket, and the SDK against plain HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from research.bench.api import ApiBenchSettings, bench_api


class Command(BaseCommand):
    help = (
        "Stream events of concurrent runs from a real worker through Redis and Daphne to one SSE client (API token) "
        "and one WebSocket client (session) per run; print both latencies and their ratio, and the SDK's time per "
        "run against plain httpx calls; write JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        defaults = ApiBenchSettings()
        parser.add_argument("--json", required=True, type=Path, help="where to write the figures")
        parser.add_argument("--runs", type=int, default=defaults.runs, help="concurrent runs (= SSE clients)")
        parser.add_argument("--events", type=int, default=defaults.events, help="events per run")
        parser.add_argument(
            "--interval-ms", type=float, default=defaults.interval_ms, help="milliseconds between a run's events"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bench = ApiBenchSettings(runs=options["runs"], events=options["events"], interval_ms=options["interval_ms"])
        figures = bench_api(bench)
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        sse, socket, sdk = figures["sse"], figures["websocket"], figures["sdk"]
        self.stdout.write(
            f"{bench.runs} runs x {bench.events} events, one every {bench.interval_ms:g} ms per run; "
            f"{bench.runs} SSE clients and {bench.runs} WebSocket clients on the same runs"
        )
        self.stdout.write(f"{'':<12}{'SSE (API)':>14}{'WebSocket (page)':>20}")
        for key in ("p50_ms", "p95_ms", "p99_ms", "max_ms", "lost", "duplicated"):
            self.stdout.write(f"{key:<12}{_shown(sse[key]):>14}{_shown(socket[key]):>20}")
        self.stdout.write(
            f"ratio SSE/WebSocket: p50 {figures['ratio_p50']}x, p95 {figures['ratio_p95']}x (target p95 <= 1.2x)"
        )
        self.stdout.write(
            f"SDK per run (every event + the detail): {sdk['per_run_ms']} ms against {sdk['baseline_per_run_ms']} ms "
            f"plain httpx: {sdk['ratio']}x, {sdk['overhead_ms']} ms more"
        )
        self.stdout.write(f"figures written to {path}")


def _shown(value: object) -> str:
    return "-" if value is None else (f"{value:,.2f}" if isinstance(value, float) else f"{value:,}")
