"""`manage.py export_trajectories`: each rollout of runs, or of an evaluation's tasks, as one JSON line for training
(schema: research/evaluation/trajectories.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.http import Http404

from research.evaluation.datasets import load_dataset
from research.evaluation.formats import DatasetError
from research.evaluation.indexing import document_chunks, indexed_text
from research.evaluation.reward import TERM_NAMES
from research.evaluation.trajectories import trajectories
from research.models import Membership
from research.platform.composition import token_counter
from research.protocol.events import Event, from_dict
from research.runs.selectors import run_chunk_texts, run_events_current, run_get


class Command(BaseCommand):
    help = (
        "Export trajectories for training, one JSON line per rollout (messages, tool calls, observations, prunes, "
        "final ranking, reward terms and the task's gold where known): of runs the given user may read, or of an "
        "evaluation report made with `evaluate --trajectories`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--run", type=int, nargs="+", help="run ids (with --user: only runs they may read)")
        parser.add_argument("--user", help="the exporting user's username (with --run)")
        parser.add_argument("--evaluation", type=Path, help="an evaluate report made with --trajectories")
        parser.add_argument("--jsonl", type=Path, required=True, help="where to write the trajectories")

    def handle(self, *args: Any, **options: Any) -> None:
        if bool(options["run"]) == bool(options["evaluation"]):
            raise CommandError("give --run ID... (with --user) or --evaluation PATH")
        records = list(self._of_runs(options) if options["run"] else self._of_evaluation(options["evaluation"]))
        path = Path(options["jsonl"])
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.stdout.write(f"{len(records)} trajectory(ies) written to {path}")

    def _of_runs(self, options: dict[str, Any]) -> Iterator[dict[str, Any]]:
        if not options["user"]:
            raise CommandError("--run needs --user: only runs that user may read are exported")
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"no user {options['user']!r}")
        runs = []
        for run_id in options["run"]:
            membership = Membership.objects.filter(user=user, workspace__runs__pk=run_id).select_related("workspace")
            try:
                if (member := membership.first()) is None:
                    raise Http404
                runs.append(run_get(membership=member, run_id=run_id))
            except Http404:
                raise CommandError(f"no run {run_id} that {options['user']!r} may read") from None
        for run in runs:
            events = [event for stored in run_events_current(run=run) if isinstance(event := stored.event(), Event)]
            texts = run_chunk_texts(run=run, chunk_ids=_chunk_ids(events))
            source = {"kind": "run", "run_id": run.pk, "workspace": run.workspace.slug}
            yield from trajectories(events, question=run.question, source=source, chunk_text=texts.get)

    def _of_evaluation(self, path: Path) -> Iterator[dict[str, Any]]:
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise CommandError(f"{path}: {error}") from None
        rows = report.get("tasks", []) if isinstance(report, dict) else []
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise CommandError(f"{path}: not an evaluate report (its tasks are not rows)")
        if not rows or any("events" not in (row.get("agent") or {}) for row in rows):
            raise CommandError(f"{path}: no agent events in it: run evaluate with --trajectories")
        texts = self._evaluation_chunks(report.get("settings") or {})
        for number, row in enumerate(rows, start=1):
            try:
                yield from self._of_row(path, row, texts)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise CommandError(
                    f"{path}: task {number} is not an evaluate row ({type(error).__name__}: {error})"
                ) from None

    def _of_row(self, path: Path, row: dict[str, Any], texts: dict[str, str]) -> Iterator[dict[str, Any]]:
        """One task row's trajectories (a KeyError or TypeError: the row is not evaluate's)."""
        events = [event for data in row["agent"]["events"] if isinstance(event := from_dict(data), Event)]
        rewards = {r["rollout"]: {name: r[name] for name in TERM_NAMES} for r in row["agent"].get("rollouts", [])}
        gold = {
            "answer": row["answer"],
            "answer_aliases": row.get("answer_aliases", []),
            "supporting_doc_ids": row["supporting_doc_ids"],
        }
        source = {"kind": "evaluation", "path": str(path), "task_id": row["id"]}
        yield from trajectories(
            events, question=row["question"], source=source, chunk_text=texts.get, rewards=rewards, gold=gold
        )

    def _evaluation_chunks(self, settings: dict[str, Any]) -> dict[str, str]:
        """The evaluation's chunks cut again as it cut them (same corpus, chunk size and token counter)."""
        try:
            corpus = Path(settings["corpus"]) if settings.get("corpus") else None
            _, docs = load_dataset(settings["format"], Path(settings["tasks"]), corpus)
        except (KeyError, OSError, DatasetError, json.JSONDecodeError) as error:
            raise CommandError(f"the evaluation's dataset cannot be read again: {error}") from None
        counter, size = token_counter(), int(settings.get("chunk_tokens", 512))
        return {
            chunk.chunk_id: chunk.text
            for doc in docs
            for chunk in document_chunks(
                doc.doc_id, indexed_text(doc), title=doc.title, counter=counter, max_tokens=size
            )
        }


def _chunk_ids(events: list[Event]) -> set[str]:
    return {chunk.chunk_id for event in events for chunk in getattr(event, "chunks", ())}
