"""`manage.py bench_run_page`: the run page's weight and time to first fragment for a run of N stored events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from research.bench.run_page import bench_run_page


class Command(BaseCommand):
    help = (
        "Store a synthetic run of N events in a throwaway workspace; print the run page's weight (HTML + CSS + JS, "
        "raw and gzip) and the time to the first and last socket fragment of a full replay; write JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", required=True, type=Path, help="where to write the figures")
        parser.add_argument("--events", type=int, default=500, help="stored events of the run")
        parser.add_argument("--repeats", type=int, default=5, help="measurements per figure (medians reported)")

    def handle(self, *args: Any, **options: Any) -> None:
        figures = bench_run_page(events=options["events"], repeats=options["repeats"])
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        self.stdout.write(f"run page with {figures['events']} stored events (medians of {figures['repeats']})")
        self.stdout.write(f"  HTML            {figures['html_bytes']:>9,} B  ({figures['html_gzip_bytes']:,} B gzip)")
        self.stdout.write(
            f"  CSS + JS        {figures['assets_total_bytes']:>9,} B  ({figures['assets_total_gzip_bytes']:,} B gzip)"
        )
        self.stdout.write(
            f"  page total      {figures['page_total_bytes']:>9,} B  ({figures['page_total_gzip_bytes']:,} B gzip)"
        )
        self.stdout.write(f"  page render     {figures['page_render_ms_median']:>9} ms (server side)")
        self.stdout.write(f"  first fragment  {figures['first_fragment_ms_median']:>9} ms (socket opened with after=0)")
        self.stdout.write(f"  all fragments   {figures['all_fragments_ms_median']:>9} ms")
