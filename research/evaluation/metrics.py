"""The Context-1 report's retrieval metrics, per task from a run's events and gold, and their means over tasks."""

from __future__ import annotations

import dataclasses
import re
import statistics
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from research.evaluation.formats import Task
from research.protocol.events import ChunksPruned, Event, RolloutFinished, ToolCalled, ToolReturned, TurnRecorded

_NOT_WORD = re.compile(r"[\W_]+")

MetricValue = float | bool | int | None


@dataclass(frozen=True)
class TaskMetrics:
    """One system's figures on one task; None where a metric does not apply (skipped by the means).

    ``tokens_per_run``: the final context size of each rollout (``context_tokens`` of its last
    ``turn_recorded``), summed over rollouts: the tokens the run's contexts held when they stopped.
    ``processed_tokens_per_run``: prompt + completion tokens of every model call, summed: what the
    model processed (estimates unless the backend reports usage).
    """

    final_answer_found: bool | None
    recall: float | None
    precision: float | None
    f1: float | None
    trajectory_recall: float | None
    prune_accuracy: float | None
    turns_per_run: float
    tool_calls_per_turn: float
    tokens_per_run: int
    processed_tokens_per_run: int
    # With a writer (``evaluate --writer``): the written answer's figures (research/evaluation/written.py).
    answer_in_text: bool | None = None
    citations_verified: float | None = None
    citation_precision: float | None = None
    # The Context-1 reward (research/evaluation/reward.py): the agent's mean over its rollouts; the single pass's own.
    reward: float | None = None

    def as_dict(self) -> dict[str, MetricValue]:
        return dataclasses.asdict(self)


METRIC_NAMES = tuple(f.name for f in dataclasses.fields(TaskMetrics))


def normalise(text: str) -> str:
    """Case-folded, Unicode-compatibility-normalised words separated by single spaces (punctuation dropped)."""
    return " ".join(_NOT_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).split())


def answer_found(answers: Iterable[str], texts: Iterable[str]) -> bool | None:
    """Whether a text holds one of ``answers`` as whole words, after normalising; None with no usable answer."""
    wanted = [f" {a} " for a in (normalise(answer) for answer in answers) if a]
    if not wanted:
        return None
    padded = [f" {normalise(text)} " for text in texts]
    return any(answer in text for answer in wanted for text in padded)


def top_documents(doc_ids: Iterable[str], k: int) -> list[str]:
    """The first ``k`` distinct doc ids, in order."""
    return list(dict.fromkeys(doc_ids))[:k]


def document_scores(returned: Sequence[str], supporting: Iterable[str]) -> tuple[float | None, float, float]:
    """(recall, precision, F1) of distinct returned documents; recall is None without gold. Nothing returned
    scores precision 0 (not undefined), so returning nothing never looks precise."""
    gold, found = set(supporting), set(returned)
    hits = len(gold & found)
    recall = hits / len(gold) if gold else None
    precision = hits / len(found) if found else 0.0
    if recall is None or recall + precision == 0:
        return recall, precision, 0.0
    return recall, precision, 2 * recall * precision / (recall + precision)


def documents_seen(events: Iterable[Event]) -> set[str]:
    """Every document one of whose chunks any tool returned, in any rollout."""
    return {chunk.doc_id for e in events if isinstance(e, ToolReturned) for chunk in e.chunks}


def trajectory_recall(events: Sequence[Event], supporting: Iterable[str]) -> float | None:
    gold = set(supporting)
    return len(gold & documents_seen(events)) / len(gold) if gold else None


def prune_accuracy(events: Sequence[Event], supporting: Iterable[str]) -> float | None:
    """Of the chunks pruned (each rollout's decision counted once), the share not from a supporting document."""
    doc_of = {c.chunk_id: c.doc_id for e in events if isinstance(e, ToolReturned) for c in e.chunks}
    pruned = {(e.rollout, chunk_id) for e in events if isinstance(e, ChunksPruned) for chunk_id in e.chunk_ids}
    if not pruned:
        return None
    gold = set(supporting)
    right = sum(1 for _, chunk_id in pruned if doc_of.get(chunk_id, chunk_id.rpartition("#")[0]) not in gold)
    return right / len(pruned)


def _turns_by_rollout(events: Sequence[Event]) -> dict[int, int]:
    """Each rollout's turns: from its ``rollout_finished``, else its last recorded model call."""
    finished = {e.rollout: e.turns for e in events if isinstance(e, RolloutFinished)}
    recorded: dict[int, int] = {}
    for e in events:
        if isinstance(e, TurnRecorded):
            recorded[e.rollout] = max(recorded.get(e.rollout, 0), e.turn)
    return {**recorded, **finished}


def run_cost(events: Sequence[Event]) -> tuple[float, float, int, int]:
    """(mean turns over rollouts, tool calls per turn, tokens per run, processed tokens per run)."""
    turns = _turns_by_rollout(events)
    calls = sum(1 for e in events if isinstance(e, ToolCalled))
    total_turns = sum(turns.values())
    last: dict[int, int] = {}
    processed = 0
    for e in events:
        if isinstance(e, TurnRecorded):
            last[e.rollout] = e.context_tokens
            processed += e.prompt_tokens + e.completion_tokens
    mean_turns = total_turns / len(turns) if turns else 0.0
    return mean_turns, (calls / total_turns if total_turns else 0.0), sum(last.values()), processed


def agent_metrics(
    task: Task, returned: Sequence[str], texts: Mapping[str, str], events: Sequence[Event]
) -> TaskMetrics:
    """The agent's figures: ``returned`` are its top-K doc ids, ``texts`` the corpus text by doc id."""
    distinct = top_documents(returned, len(returned))
    recall, precision, f1 = document_scores(distinct, task.supporting_doc_ids)
    turns, per_turn, tokens, processed = run_cost(events)
    return TaskMetrics(
        final_answer_found=answer_found((task.answer, *task.answer_aliases), (texts.get(d, "") for d in distinct)),
        recall=recall,
        precision=precision,
        f1=f1,
        trajectory_recall=trajectory_recall(events, task.supporting_doc_ids),
        prune_accuracy=prune_accuracy(events, task.supporting_doc_ids),
        turns_per_run=turns,
        tool_calls_per_turn=per_turn,
        tokens_per_run=tokens,
        processed_tokens_per_run=processed,
    )


def baseline_metrics(task: Task, returned: Sequence[str], texts: Mapping[str, str], tokens: int) -> TaskMetrics:
    """A single search: one turn, one call, nothing pruned, all it saw is what it returns; ``tokens`` are those of
    the returned documents' chunks (what a reader of its result would take in)."""
    distinct = top_documents(returned, len(returned))
    recall, precision, f1 = document_scores(distinct, task.supporting_doc_ids)
    return TaskMetrics(
        final_answer_found=answer_found((task.answer, *task.answer_aliases), (texts.get(d, "") for d in distinct)),
        recall=recall,
        precision=precision,
        f1=f1,
        trajectory_recall=recall,
        prune_accuracy=None,
        turns_per_run=1.0,
        tool_calls_per_turn=1.0,
        tokens_per_run=tokens,
        processed_tokens_per_run=tokens,
    )


def aggregate(rows: Sequence[TaskMetrics]) -> dict[str, float | None]:
    """The mean of each metric over tasks, skipping None (None when no task has a value)."""
    means: dict[str, float | None] = {}
    for name in METRIC_NAMES:
        values = [float(v) for row in rows if (v := getattr(row, name)) is not None]
        means[name] = statistics.fmean(values) if values else None
    return means


def side_by_side(columns: Mapping[str, Mapping[str, Any]]) -> str:
    """A plain-text table: one row per metric, then any other figure a column has (the distractor recall
    ratio; a group of figures, such as the reward's terms, a row each as ``group.name``), one column per system."""
    columns = {name: _flat(column) for name, column in columns.items()}
    names = list(columns)
    extra = [key for key in dict.fromkeys(k for name in names for k in columns[name]) if key not in METRIC_NAMES]
    width = max([26, *(len(key) + 2 for key in extra)])
    widths = [max(14, len(name) + 2) for name in names]
    lines = [f"{'metric':<{width}}" + "".join(f"{name:>{w}}" for name, w in zip(names, widths, strict=True))]
    for metric in (*METRIC_NAMES, *extra):
        cells = [columns[name].get(metric) for name in names]
        lines.append(f"{metric:<{width}}" + "".join(f"{_cell(v):>{w}}" for v, w in zip(cells, widths, strict=True)))
    return "\n".join(lines)


def _flat(column: Mapping[str, Any]) -> dict[str, float | None]:
    flat: dict[str, float | None] = {}
    for key, value in column.items():
        if isinstance(value, Mapping):
            flat |= {f"{key}.{name}": figure for name, figure in value.items()}
        else:
            flat[key] = value
    return flat


def _cell(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3f}"
