"""`manage.py bench_schedules --schedules 200 --json PATH`: due schedules fired by one beat tick (two at once)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from research.bench.processes import embedded_redis
from research.bench.schedules import bench_schedules

SHOWN = (
    "schedules busy fired skipped duplicated seconds_to_enqueue_all baseline_seconds tick_vs_baseline "
    "runs_not_finished digests_made digests_sent emails_sent"
).split()


class Command(BaseCommand):
    help = (
        "Fire N due schedules with two concurrent ticks against the scripted backend, execute their runs, make and "
        "e-mail their digests; print fired, skipped, duplicated, seconds to enqueue all and the baseline ratio."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", required=True, type=Path)
        parser.add_argument("--schedules", type=int, default=200)
        parser.add_argument("--busy", type=int, default=10, help="schedules whose last run is still going")
        parser.add_argument("--files", type=int, default=4, help="demo corpus files to ingest")

    def handle(self, *args: Any, **options: Any) -> None:
        with (
            tempfile.TemporaryDirectory(prefix="bench-schedules-") as logs,
            embedded_redis(dict(os.environ), Path(logs)),
        ):
            figures = bench_schedules(
                schedules_count=options["schedules"], busy=options["busy"], files=options["files"]
            )
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        for key in SHOWN:
            self.stdout.write(f"{key:>24}  {figures[key]}")
        self.stdout.write(f"baseline: {figures['baseline']}\nfigures written to {path}")
