"""`manage.py bench_french`: what the English embedder costs on French text (the report benchmark's dev corpora)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.bench.french import french_benchmark, french_table
from research.evaluation.runner import EVAL_EMBEDDERS, eval_embedder
from research.platform.composition import model_cache, token_counter


class Command(BaseCommand):
    help = (
        "Retrieval of each gold fact's passage (its sentence as the query) by BM25, dense and hybrid, in the "
        "report benchmark's dev corpora, French against English, in a temporary folder (the test split and the "
        "app's data are never touched)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--embedder", default="minilm", choices=EVAL_EMBEDDERS)
        parser.add_argument("--corpus", action="append", default=[], help="only this dev corpus (repeatable)")
        parser.add_argument("--json", required=True, type=Path, help="where to write the results")

    def handle(self, *args: Any, **options: Any) -> None:
        embedder = eval_embedder(options["embedder"], model_cache())
        with tempfile.TemporaryDirectory(prefix="bench-french-", ignore_cleanup_errors=True) as folder:
            try:
                result = french_benchmark(
                    workdir=Path(folder),
                    embedder=embedder,
                    counter=token_counter(),
                    names=options["corpus"],
                    progress=self._say,
                )
            except ValueError as error:
                raise CommandError(str(error)) from None
        path: Path = options["json"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        self._say(f"\n{french_table(result)}\n\nresults written to {path}")

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
