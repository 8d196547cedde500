"""`manage.py evaluate`: the agent against a single-pass hybrid search on a QA dataset, written as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.evaluation.formats import DatasetError
from research.evaluation.metrics import side_by_side
from research.evaluation.runner import EVAL_EMBEDDERS, EvalSettings, Evaluation, eval_embedder, evaluate_dataset
from research.harness.config import MAX_ROLLOUTS
from research.inference.registry import BACKENDS
from research.platform.composition import model_cache, token_counter
from research.retrieval.embedders import Embedder
from research.writing.writers import WRITERS, Writer, WriterSettings, writer_for


def _settings(options: dict[str, Any]) -> EvalSettings:
    return EvalSettings(
        backend=options["backend"],
        rollouts=options["rollouts"],
        budget=options["budget"],
        top_k=options["top_k"],
        max_turns=options["max_turns"],
        chunk_tokens=options["chunk_tokens"],
        embedder=options["embedder"],
        base_url=options["base_url"],
        model=options["model"],
        api_key=settings.VLLM_API_KEY,
        timeout=settings.VLLM_TIMEOUT,
        temperature=settings.VLLM_TEMPERATURE,
        writer=options["writer"],
        reward_beta=options["reward_beta"],
        trajectories=options["trajectories"],
    )


def _writer(name: str | None, embedder: Embedder) -> Writer | None:
    """The writer ``evaluate --writer`` names, with the evaluation's embedder and the WRITER_* settings."""
    if name is None:
        return None
    config = WriterSettings(
        embedder=embedder,
        base_url=settings.WRITER_BASE_URL,
        model=settings.WRITER_MODEL,
        api_key=settings.WRITER_API_KEY or "",
        timeout=settings.WRITER_TIMEOUT,
    )
    try:
        return writer_for(name, config)
    except ValueError as error:
        raise CommandError(str(error)) from None


def _columns(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The table's columns: both systems, and both again over the task and distractor corpora together."""
    columns = {"agent": report["agent"], "baseline": report["baseline"]}
    together = report.get("with_distractor", {})
    return columns | {f"{system}+distractor": figures for system, figures in together.items()}


class Command(BaseCommand):
    help = "Evaluate the search agent and a single hybrid search on a dataset (a temporary index of its corpus)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, choices=("jsonl", "musique", "hotpotqa"))
        parser.add_argument("--tasks", required=True, type=Path, help="the task (question) file")
        parser.add_argument("--corpus", type=Path, help="corpus file (jsonl: required; musique: extra distractors)")
        parser.add_argument("--backend", default="heuristic", choices=BACKENDS.names)
        parser.add_argument("--rollouts", type=int, default=4)
        parser.add_argument("--budget", type=int, default=32_768, help="token budget per rollout")
        parser.add_argument("--top-k", type=int, default=10, help="documents returned by each system")
        parser.add_argument("--max-turns", type=int, default=16)
        parser.add_argument("--chunk-tokens", type=int, default=512)
        parser.add_argument(
            "--distractor-corpus",
            type=Path,
            help="a second corpus (corpus JSONL, the MuSiQue or HotpotQA corpus or task file) indexed as its own"
            " corpus: the agent and the baseline run again over both corpora searched together"
            " (distractor_recall_ratio)",
        )
        parser.add_argument("--limit", type=int, help="evaluate only the first L tasks (the corpus stays whole)")
        parser.add_argument("--embedder", default="minilm", choices=EVAL_EMBEDDERS)
        parser.add_argument(
            "--writer",
            choices=WRITERS.names,
            help="write each system's answer from its documents and measure it (answer_in_text, citations_verified,"
            " citation_precision); openai uses WRITER_BASE_URL",
        )
        parser.add_argument("--base-url", default=settings.VLLM_BASE_URL, help="openai: the server (VLLM_BASE_URL)")
        parser.add_argument("--model", default=settings.VLLM_MODEL, help="openai: the served model name")
        parser.add_argument(
            "--reward-beta",
            type=float,
            default=settings.REWARD_BETA,
            help="the reward's F-beta over supporting documents: recall weighs beta squared times precision",
        )
        parser.add_argument(
            "--trajectories",
            action="store_true",
            help="keep each task's agent events in the report, for export_trajectories --evaluation",
        )
        parser.add_argument("--json", required=True, type=Path, help="where to write the report")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 1 <= options["rollouts"] <= MAX_ROLLOUTS:  # (a report's facets may run more; a question may not)
            raise CommandError(f"--rollouts must be between 1 and {MAX_ROLLOUTS}")
        if not 0.1 <= options["reward_beta"] <= 100:
            raise CommandError("--reward-beta must lie between 0.1 and 100")
        config = _settings(options)
        try:
            config.harness()
            backends = config.backends()
        except ValueError as error:
            raise CommandError(str(error)) from None
        tasks, corpus = Path(options["tasks"]), Path(options["corpus"]) if options["corpus"] else None
        distractor = Path(options["distractor_corpus"]) if options.get("distractor_corpus") else None
        for given in (tasks, corpus, distractor):
            if given is not None and not given.is_file():
                raise CommandError(f"no such file: {given}")
        embedder = eval_embedder(config.embedder, model_cache())
        run = Evaluation(
            config, backends, embedder, token_counter(), self._say, writer=_writer(options["writer"], embedder)
        )
        try:
            report = evaluate_dataset(
                options["format"], tasks, corpus, limit=options["limit"], run=run, distractor_path=distractor
            )
        except (DatasetError, json.JSONDecodeError) as error:
            raise CommandError(f"dataset: {error}") from None
        path = Path(options["json"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        self._say("\n" + side_by_side(_columns(report)))
        walls = report["wall_s"]
        self._say(
            f"\nwall: index {walls['index']:.1f}s, agent {walls['agent']:.1f}s, baseline {walls['baseline']:.1f}s, "
            f"total {walls['total']:.1f}s; report written to {path}"
        )

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
