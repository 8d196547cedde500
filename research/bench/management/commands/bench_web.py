"""`manage.py bench_web --json PATH`: fetching pages into a corpus against a loopback site (cold, warm, revalidated),
time to searchable, and the share of a web run's wall time spent fetching; against plain downloads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from research.bench.web_sources import bench_web

SHOWN = (
    "pages plain_pages_per_second cold_pages_per_second warm_pages_per_second revalidated_pages_per_second "
    "cold_vs_plain_seconds seconds_to_searchable_median seconds_to_searchable_max"
).split()


class Command(BaseCommand):
    help = (
        "Fetch loopback pages into a web corpus cold, warm, revalidated; time to searchable; a web run's fetch share."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", required=True, type=Path)
        parser.add_argument("--pages", type=int, default=30)

    def handle(self, *args: Any, **options: Any) -> None:
        figures = bench_web(pages=options["pages"])
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        for key in SHOWN:
            self.stdout.write(f"{key:>30}  {figures[key]}")
        run = figures["web_run"]
        self.stdout.write(
            f"{'web run':>30}  {run['run_seconds']} s, {run['fetch_seconds']} s fetching ({run['fetch_share']:.0%})"
        )
        self.stdout.write(f"baseline: {figures['baseline']}\nfigures written to {path}")
