"""`manage.py generate_tasks`: multi-hop tasks generated from a corpus and verified in code (research/evaluation/
generation.py), written in the evaluation's formats so that `evaluate --format jsonl` runs on them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.corpora.selectors import corpus_find, document_texts
from research.corpus_health.services import evaluation_settings
from research.evaluation.datasets import load_corpus
from research.evaluation.exploration import ModelExplorer
from research.evaluation.formats import CorpusDoc, DatasetError, write_corpus, write_task_records
from research.evaluation.generation import HOPS, Generation, IndexSearches, generate
from research.evaluation.runner import EVAL_EMBEDDERS, eval_embedder, temporary_indexes
from research.inference.registry import BackendFactory
from research.platform.composition import model_cache, token_counter
from research.writing.openai_writer import OpenAIWriter
from research.writing.writers import WriterSettings


def _hops(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d)\s*(?:-\s*(\d)\s*)?", text)
    if match is None:
        raise CommandError(f"--hops must be N or N-M with 2 <= N <= M <= 4, got {text!r}")
    low, high = int(match.group(1)), int(match.group(2) or match.group(1))
    if not 2 <= low <= high <= 4:
        raise CommandError(f"--hops must be N or N-M with 2 <= N <= M <= 4, got {text!r}")
    return low, high


def _writer() -> OpenAIWriter:
    if not settings.WRITER_BASE_URL:
        raise CommandError(
            "--explorer openai needs WRITER_BASE_URL (an OpenAI-compatible server that writes the tasks)"
        )
    return OpenAIWriter(
        WriterSettings(
            base_url=settings.WRITER_BASE_URL,
            model=settings.WRITER_MODEL,
            api_key=settings.WRITER_API_KEY or "",
            timeout=settings.WRITER_TIMEOUT,
        )
    )


def _explore_backends() -> BackendFactory:
    """The search agent that explores: the deployment's backend and model server."""
    try:
        return evaluation_settings().backends()
    except ValueError as error:
        raise CommandError(str(error)) from None


class Command(BaseCommand):
    help = (
        "Generate multi-hop tasks from a workspace's corpus (or a corpus JSONL file): chains of documents linked by "
        "a shared name, each hop's clue a sentence of its document, the truth a year, number or name of the last; "
        "each verified (quotes in their documents, the truth held, no distractor holding it, no single-search "
        "shortcut). Writes the tasks and the corpus in evaluate's jsonl formats and a summary of what was dropped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workspace", help="the workspace's slug (with --corpus)")
        parser.add_argument("--corpus", help="the corpus's name or slug in the product")
        parser.add_argument(
            "--corpus-jsonl",
            type=Path,
            help="instead: a corpus file (evaluate's corpus JSONL, MuSiQue's or HotpotQA's)",
        )
        parser.add_argument("--count", type=int, default=20, help="tasks to make (fewer when the corpus runs out)")
        parser.add_argument("--hops", default=f"{HOPS[0]}-{HOPS[1]}", help="documents per task: N or N-M, 2 to 4")
        parser.add_argument("--seed", type=int, default=0, help="the draw of start documents and links")
        parser.add_argument("--embedder", default="minilm", choices=EVAL_EMBEDDERS, help="for the dense shortcut check")
        parser.add_argument(
            "--explorer",
            choices=("offline", "openai"),
            default="offline",
            help="offline: chains linked by shared names, clues quoted as written; openai: the search agent explores "
            "from a seed document with its tools (INFERENCE_BACKEND) and the model at WRITER_BASE_URL writes the "
            "clues, question and truth (both verified the same way)",
        )
        parser.add_argument(
            "--attempts", type=int, help="candidates to try at most (default: 100 per task offline, 3 with a model)"
        )
        parser.add_argument("--tasks-out", type=Path, required=True, help="the tasks, evaluate's task JSONL")
        parser.add_argument("--corpus-out", type=Path, required=True, help="the corpus, evaluate's corpus JSONL")
        parser.add_argument("--json", type=Path, help="the summary: tasks, candidates, drops by check, seconds")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["count"] < 1:
            raise CommandError("--count must be 1 or more")
        if options["attempts"] is not None and options["attempts"] < 1:
            raise CommandError("--attempts must be 1 or more")
        hops = _hops(options["hops"])
        # the model's settings first: a missing one is said before the corpus is read and indexed
        model = (_writer(), _explore_backends()) if options["explorer"] == "openai" else None
        docs = self._documents(options)
        if len(docs) < hops[0]:
            raise CommandError(f"the corpus has {len(docs)} document(s): a task needs at least {hops[0]}")
        self.stderr.write(f"{len(docs)} document(s); indexing them for the checks ({options['embedder']})")
        embedder = eval_embedder(options["embedder"], model_cache())
        with temporary_indexes(
            [docs], embedder=embedder, counter=token_counter(), chunk_tokens=512, progress=lambda line: None
        ) as (index,):
            explorer = None
            if model is not None:
                explorer = ModelExplorer(*model, token_counter(), index, {doc.doc_id: doc for doc in docs})
            attempts = options["attempts"]
            if attempts is None and explorer is not None:
                attempts = 3 * options["count"]
            result = generate(
                docs,
                IndexSearches(index),
                count=options["count"],
                hops=hops,
                seed=options["seed"],
                attempts=attempts,
                progress=self._progress(options["count"]),
                propose=None if explorer is None else explorer.propose,
            )
        self._write(result, docs, options)

    def _documents(self, options: dict[str, Any]) -> list[CorpusDoc]:
        if options["corpus_jsonl"] is not None:
            if options["corpus"] or options["workspace"]:
                raise CommandError("give --corpus-jsonl or --workspace with --corpus, not both")
            try:
                return load_corpus(options["corpus_jsonl"])
            except (OSError, DatasetError, json.JSONDecodeError) as error:
                raise CommandError(f"{options['corpus_jsonl']}: {error}") from None
        if not options["corpus"]:
            raise CommandError("name the corpus: --workspace SLUG --corpus NAME, or --corpus-jsonl PATH")
        try:
            corpus = corpus_find(name_or_slug=options["corpus"], workspace_slug=options["workspace"])
        except LookupError as error:
            raise CommandError(str(error)) from None
        return [CorpusDoc(doc_id, title, text) for doc_id, title, text in document_texts(corpus=corpus)]

    def _progress(self, count: int) -> Any:
        shown = {"made": -1}

        def say(made: int, tried: int) -> None:
            if made != shown["made"] or tried % 50 == 0:
                shown["made"] = made
                self.stderr.write(f"{made}/{count} task(s) verified, {tried} candidate(s) tried")

        return say

    def _write(self, result: Generation, docs: list[CorpusDoc], options: dict[str, Any]) -> None:
        for path in (options["tasks_out"], options["corpus_out"], options["json"]):
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
        write_task_records(options["tasks_out"], (task.record() for task in result.tasks))
        write_corpus(options["corpus_out"], docs)
        summary = result.summary()
        if options["json"] is not None:
            options["json"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        dropped = ", ".join(f"{reason} {number}" for reason, number in summary["dropped"].items())
        self.stdout.write(
            f"{summary['tasks']} task(s) of {summary['candidates']} candidate(s) (by hops: {summary['tasks_by_hops']});"
            f" dropped: {dropped}; {summary['seconds']} s"
        )
        if summary["tasks"] < options["count"]:
            self.stdout.write(f"fewer than the {options['count']} asked: the corpus offered no more that passed")
        self.stdout.write(
            f"run them: python manage.py evaluate --format jsonl --tasks {options['tasks_out']}"
            f" --corpus {options['corpus_out']} --json REPORT.json"
        )
