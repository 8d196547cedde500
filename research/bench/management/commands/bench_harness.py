"""`manage.py bench_harness`: the harness's own costs (per-turn overhead, pruning, memory, rollout concurrency)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from research.bench.harness import BenchSettings, bench_harness
from research.harness.run import estimate_tokens
from research.platform.composition import token_counter

_TARGETS = {"overhead_ms_per_turn": "< 5 ms", "rollouts4_wall_ratio": "<= 1.3"}


class Command(BaseCommand):
    help = "Benchmark the harness with a scripted model and an in-memory corpus; print a table and write JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        defaults = BenchSettings()
        parser.add_argument("--json", required=True, type=Path, help="where to write the figures")
        parser.add_argument("--budget", type=int, default=defaults.budget, help="token budget (the full context)")
        parser.add_argument("--turns", type=int, default=defaults.turns, help="turns of the overhead run")
        parser.add_argument("--chunk-tokens", type=int, default=defaults.chunk_tokens)
        parser.add_argument("--latency", type=float, default=defaults.latency_s, help="simulated model seconds")
        parser.add_argument("--rollout-turns", type=int, default=defaults.rollout_turns)
        parser.add_argument(
            "--counter",
            default="product",
            choices=("product", "estimate"),
            help="token counting: the product's (word pieces when MiniLM is installed) or the 4-characters estimate",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        settings = BenchSettings(
            budget=options["budget"],
            turns=options["turns"],
            chunk_tokens=options["chunk_tokens"],
            latency_s=options["latency"],
            rollout_turns=options["rollout_turns"],
        )
        if options["counter"] == "estimate":
            figures = bench_harness(settings, estimate_tokens, counter_name="estimate_tokens")
        else:
            counter = token_counter()
            figures = bench_harness(settings, counter.count, counter_name=counter.name)
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        for key, value in figures.items():
            if key != "settings":
                shown = "-" if value is None else (f"{value:,.3f}" if isinstance(value, float) else f"{value:,}")
                target = f"  (target {_TARGETS[key]})" if key in _TARGETS else ""
                self.stdout.write(f"{key:<40}{shown:>14}{target}")
        self.stdout.write(f"\ntoken counter {figures['settings']['counter']}; figures written to {path}")
