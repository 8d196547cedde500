"""`manage.py bench_retrieval`: retrieval speed against a LangChain-style baseline, or recall on a QA dataset."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.bench.retrieval import quality_benchmark, speed_benchmark
from research.bench.speed import SpeedOptions
from research.bench.staged import staged_benchmark, staged_table
from research.bench.tables import quality_table, speed_table
from research.evaluation.formats import DatasetError
from research.evaluation.runner import EVAL_EMBEDDERS, eval_embedder
from research.platform.composition import model_cache, token_counter
from research.retrieval.embedders import Embedder


class Command(BaseCommand):
    help = (
        "Benchmark retrieval in a temporary folder (the app's data is never touched): --chunks N (repeatable) for "
        "ingestion and search speed against a LangChain-style hybrid, --quality DATASET for recall@10/@50, or "
        "--staged for how soon a 1,000-document upload is searchable (words first) and refined (vectors)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        mode = parser.add_mutually_exclusive_group(required=True)
        mode.add_argument("--chunks", type=int, action="append", help="synthetic corpus size (repeat for several)")
        mode.add_argument("--quality", choices=("musique", "hotpotqa"), help="recall on this dataset")
        mode.add_argument(
            "--staged",
            action="store_true",
            help="seconds to searchable and to refined for a MuSiQue upload, against today's full ingestion",
        )
        parser.add_argument("--documents", type=int, default=1000, help="--staged: the upload's documents")
        parser.add_argument("--data", type=Path, default=settings.BASE_DIR / "research" / "evaluation" / "qa_data")
        parser.add_argument("--queries", type=int, default=50, help="timed search queries per corpus size")
        parser.add_argument("--embed-sample", type=int, default=1000, help="chunks the embedder's rate is timed on")
        parser.add_argument("--embedder", default="minilm", choices=EVAL_EMBEDDERS)
        parser.add_argument("--json", required=True, type=Path, help="where to write the results")

    def handle(self, *args: Any, **options: Any) -> None:
        sizes: list[int] = options["chunks"] or []
        if any(n < 1 for n in [*sizes, options["queries"], options["embed_sample"]]):
            raise CommandError("--chunks, --queries and --embed-sample must be positive")
        embedder = eval_embedder(options["embedder"], model_cache())
        with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as folder:
            if options["quality"]:
                result = self._quality(options["quality"], options["data"], Path(folder), embedder)
                table = quality_table(result)
            elif options["staged"]:
                result = self._staged(options["data"], Path(folder), embedder, options["documents"])
                table = staged_table(result)
            else:
                speed = SpeedOptions(queries=options["queries"], embed_sample=options["embed_sample"])
                result = speed_benchmark(
                    sizes,
                    workdir=Path(folder),
                    embedder=embedder,
                    options=speed,
                    counter=token_counter(),
                    progress=self._say,
                )
                table = speed_table(result)
        path: Path = options["json"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        self._say(f"\n{table}\n\nresults written to {path}")

    def _quality(self, dataset: str, data: Path, folder: Path, embedder: Embedder) -> dict[str, Any]:
        try:
            return quality_benchmark(
                "musique" if dataset == "musique" else "hotpotqa",
                data_dir=data,
                workdir=folder,
                embedder=embedder,
                counter=token_counter(),
                progress=self._say,
            )
        except (FileNotFoundError, DatasetError, json.JSONDecodeError) as error:
            raise CommandError(f"dataset {dataset} in {data}: {error}") from None

    def _staged(self, data: Path, folder: Path, embedder: Embedder, documents: int) -> dict[str, Any]:
        try:
            return staged_benchmark(
                data_dir=data,
                workdir=folder,
                embedder=embedder,
                counter=token_counter(),
                documents=documents,
                progress=self._say,
            )
        except (FileNotFoundError, DatasetError, json.JSONDecodeError) as error:
            raise CommandError(f"MuSiQue in {data}: {error}") from None

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
