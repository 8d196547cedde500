"""`manage.py bench_reports --json PATH`: a competitor report's wall time against one question run's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from research.bench.reports import bench_reports


class Command(BaseCommand):
    help = "Time a competitor report (9 facets) against one free question on the demo corpus; print the ratio."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", required=True, type=Path)
        parser.add_argument("--latency", type=float, action="append", help="simulated model seconds (repeatable)")
        parser.add_argument("--repeats", type=int, default=3)
        parser.add_argument("--max-turns", type=int, default=8)
        parser.add_argument("--rollouts", type=int, default=4, help="the question run's rollouts")

    def handle(self, *args: Any, **options: Any) -> None:
        figures = bench_reports(
            latencies=options["latency"] or [0.0, 0.5],
            repeats=options["repeats"],
            max_turns=options["max_turns"],
            rollouts=options["rollouts"],
        )
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        self.stdout.write(f"baseline: {figures['baseline']}\nmeasured: {figures['report']}\n")
        self.stdout.write(f"{'model latency':>14}{'question s':>12}{'report s':>10}{'ratio':>8}   target <= 2.0")
        for row in figures["rows"]:
            self.stdout.write(
                f"{row['model_latency_s']:>14.2f}{row['question_s']:>12.2f}{row['report_s']:>10.2f}"
                f"{row['report_vs_question']:>8.2f}"
            )
        self.stdout.write(f"figures written to {path}")
