"""The evaluation file formats: tasks and corpus documents as JSON Lines, one record a line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class DatasetError(ValueError):
    """A task or corpus file does not have the expected shape (the message names the file and record)."""


@dataclass(frozen=True)
class Hop:
    """One single-hop step of a multi-hop question, with the document that answers it."""

    question: str
    answer: str
    supporting_doc_id: str


@dataclass(frozen=True)
class Task:
    id: str
    question: str
    answer: str
    answer_aliases: tuple[str, ...] = ()
    supporting_doc_ids: tuple[str, ...] = ()
    hops: tuple[Hop, ...] | None = None  # None: the dataset has no decomposition


@dataclass(frozen=True)
class CorpusDoc:
    doc_id: str
    title: str
    text: str


def _string(record: dict[str, Any], key: str, where: str) -> str:
    value = record.get(key)
    if not isinstance(value, str):
        raise DatasetError(f"{where}: {key!r} must be a string, got {type(value).__name__}")
    return value


def _strings(record: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = record.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise DatasetError(f"{where}: {key!r} must be a list of strings")
    return tuple(value)


def _hops(record: dict[str, Any], where: str) -> tuple[Hop, ...] | None:
    raw = record.get("hops")
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(hop, dict) for hop in raw):
        raise DatasetError(f"{where}: 'hops' must be a list of objects")
    return tuple(
        Hop(_string(hop, "question", where), _string(hop, "answer", where), _string(hop, "supporting_doc_id", where))
        for hop in raw
    )


def task_from_record(record: dict[str, Any], where: str) -> Task:
    return Task(
        id=_string(record, "id", where),
        question=_string(record, "question", where),
        answer=_string(record, "answer", where),
        answer_aliases=_strings(record, "answer_aliases", where),
        supporting_doc_ids=_strings(record, "supporting_doc_ids", where),
        hops=_hops(record, where),
    )


def task_to_record(task: Task) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": task.id,
        "question": task.question,
        "answer": task.answer,
        "answer_aliases": list(task.answer_aliases),
        "supporting_doc_ids": list(task.supporting_doc_ids),
    }
    if task.hops is not None:
        record["hops"] = [
            {"question": h.question, "answer": h.answer, "supporting_doc_id": h.supporting_doc_id} for h in task.hops
        ]
    return record


def _records(path: Path) -> Iterator[tuple[dict[str, Any], str]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DatasetError(f"{where}: not JSON ({error.msg})") from None
            if not isinstance(record, dict):
                raise DatasetError(f"{where}: expected a JSON object")
            yield record, where


def _write(path: Path, records: Iterable[dict[str, Any]]) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count


def read_tasks(path: Path) -> list[Task]:
    return [task_from_record(record, where) for record, where in _records(path)]


def write_tasks(path: Path, tasks: Iterable[Task]) -> int:
    """Write ``tasks`` as JSON Lines; returns how many were written."""
    return _write(path, (task_to_record(task) for task in tasks))


def write_task_records(path: Path, records: Iterable[dict[str, Any]]) -> int:
    """Write task records (``task_to_record``'s, with any fields of their own beside) as JSON Lines."""
    return _write(path, records)


def read_corpus(path: Path) -> list[CorpusDoc]:
    return [
        CorpusDoc(_string(record, "doc_id", where), _string(record, "title", where), _string(record, "text", where))
        for record, where in _records(path)
    ]


def write_corpus(path: Path, docs: Iterable[CorpusDoc]) -> int:
    """Write ``docs`` as JSON Lines; returns how many were written."""
    return _write(path, ({"doc_id": d.doc_id, "title": d.title, "text": d.text} for d in docs))
