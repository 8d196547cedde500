"""`manage.py bench_load`: N concurrent runs x M WebSocket viewers each, on the real stack, level by level."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.bench.load import PRODUCTION, LoadError, LoadSettings, bench_load


def _counts(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise CommandError(f"not a comma-separated list of counts: {text!r}") from None
    if not counts or min(counts) < 1:
        raise CommandError(f"counts must be 1 or more: {text!r}")
    return counts


class Command(BaseCommand):
    help = (
        "Run N concurrent 4-rollout runs (a slowed offline model) with M WebSocket viewers each on the real "
        "stack, for every N and M given; print event latency, losses, runs per minute and CPU per event, and "
        "the largest N x M that holds p95 < 250 ms with nothing lost; write JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        defaults = LoadSettings()
        shown = ",".join
        parser.add_argument("--json", required=True, type=Path, help="where to write the figures")
        parser.add_argument(
            "--runs", default=shown(map(str, defaults.runs)), help="concurrent runs per level, e.g. 1,2,4,8"
        )
        parser.add_argument(
            "--viewers", default=shown(map(str, defaults.viewers)), help="viewers per run per level, e.g. 1,4"
        )
        parser.add_argument(
            "--model-delay", type=float, default=defaults.model_delay_s, help="seconds each model call takes"
        )
        parser.add_argument("--rollouts", type=int, default=defaults.rollouts, help="rollouts per run")
        parser.add_argument("--max-turns", type=int, default=defaults.max_turns, help="turns per rollout at most")
        parser.add_argument(
            "--format", choices=("html", "json"), default=defaults.format, help="what the viewers' sockets speak"
        )
        parser.add_argument(
            "--topology",
            choices=("embedded", "production"),
            default=defaults.topology,
            help="embedded: one Daphne and one thread-pool worker (make run's); production: the levels on 1 web "
            "process + 1 prefork runs worker, then on 2 + 2 with the viewers spread over both web processes, "
            "against a Chroma server (CHROMA_URL, or one started here); needs PostgreSQL",
        )
        parser.add_argument(
            "--worker-concurrency",
            type=int,
            default=defaults.worker_concurrency,
            help="pool processes per worker of the production topology",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not 1 <= options["worker_concurrency"] <= 16:
            raise CommandError("--worker-concurrency must lie between 1 and 16")
        bench = LoadSettings(
            runs=_counts(options["runs"]),
            viewers=_counts(options["viewers"]),
            model_delay_s=options["model_delay"],
            rollouts=options["rollouts"],
            max_turns=options["max_turns"],
            format=options["format"],
            topology=options["topology"],
            worker_concurrency=options["worker_concurrency"],
        )
        try:
            figures = bench_load(bench, progress=self.stderr.write)
        except LoadError as error:
            raise CommandError(str(error)) from None
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        if bench.topology == "production":
            for name, size in figures["sizes"].items():
                self.stdout.write(f"{name}:")
                self._table(size, figures["target"])
            self._second_process(figures["second_process"])
        else:
            self._table(figures, figures["target"])
        self.stdout.write(f"baseline: {BASELINE}; figures written to {path}")

    def _table(self, figures: dict[str, Any], target: str) -> None:
        self.stdout.write(
            f"{'runs x viewers':<16}{'p50 ms':>9}{'p95 ms':>9}{'x base':>8}{'lost':>6}{'dup':>5}{'errors':>7}"
            f"{'runs/min':>10}{'CPU ms/ev':>11}{'load':>6}"
        )
        for level in [{**figures["baseline"], "p95_vs_baseline": 1.0}, *figures["levels"]]:
            self.stdout.write(
                f"{level['runs']:>6} x {level['viewers_per_run']:<7}{_shown(level['p50_ms']):>9}"
                f"{_shown(level['p95_ms']):>9}{_shown(level['p95_vs_baseline']):>8}{level['lost']:>6}"
                f"{level['duplicated']:>5}{len(level['errors']):>7}{_shown(level['runs_per_minute']):>10}"
                f"{_shown(level['cpu_ms_per_event']):>11}{level['load_average_1m']:>6}"
            )
        limit = figures["limit"]
        held = "none" if limit is None else f"{limit['runs']} runs x {limit['viewers_per_run']} viewers"
        self.stdout.write(f"largest level holding {target}: {held}")

    def _second_process(self, second: dict[str, Any]) -> None:
        (one_web, one_worker), (webs, workers) = PRODUCTION
        self.stdout.write(f"{webs} web + {workers} workers over {one_web} + {one_worker}, level by level:")
        self.stdout.write(f"{'runs x viewers':<16}{'p95 ratio':>11}{'runs/min ratio':>16}")
        for level in second["levels"]:
            self.stdout.write(
                f"{level['runs']:>6} x {level['viewers_per_run']:<7}{_shown(level['p95_ratio']):>11}"
                f"{_shown(level['runs_per_minute_ratio']):>16}"
            )
        self.stdout.write(f"limit (runs x viewers) ratio: {_shown(second['limit_ratio'])}")


BASELINE = "1 run x 1 viewer, in the same run on the same processes (per size for the production topology)"


def _shown(value: object) -> str:
    return "-" if value is None else f"{value:,.2f}" if isinstance(value, float) else str(value)
