"""Typed events: the only output channel of a run besides its result. Frozen, with a ``type`` discriminator."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

BudgetLevel = Literal["ok", "soft", "hard"]
StopReason = Literal["answered", "completed", "max_turns", "budget", "failed", "cancelled"]


@dataclass(frozen=True, kw_only=True)
class ChunkRef:
    chunk_id: str
    doc_id: str
    title: str
    score: float
    new: bool = True  # False when a concurrent call of the same turn already returned it


@dataclass(frozen=True, kw_only=True)
class RankedDocument:
    doc_id: str
    title: str
    score: float
    chunk_ids: tuple[str, ...]
    agreement: int = 1  # how many rollouts found it


@dataclass(frozen=True, kw_only=True)
class RunStarted:
    type: Literal["run_started"] = "run_started"
    question: str
    rollouts: int
    budget: int


@dataclass(frozen=True, kw_only=True)
class TurnStarted:
    type: Literal["turn_started"] = "turn_started"
    rollout: int
    turn: int


@dataclass(frozen=True, kw_only=True)
class ToolCalled:
    type: Literal["tool_called"] = "tool_called"
    rollout: int
    turn: int
    call_id: str
    tool: str
    query: str  # the sub-query, pattern, document id or pruned ids, as text
    arguments: str


@dataclass(frozen=True, kw_only=True)
class ToolReturned:
    type: Literal["tool_returned"] = "tool_returned"
    rollout: int
    turn: int
    call_id: str
    tool: str
    chunks: tuple[ChunkRef, ...] = ()
    tokens: int = 0
    omitted: int = 0
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class FusedRankingUpdated:
    type: Literal["fused_ranking_updated"] = "fused_ranking_updated"
    rollout: int
    turn: int
    documents: tuple[RankedDocument, ...]


@dataclass(frozen=True, kw_only=True)
class ChunksPruned:
    type: Literal["chunks_pruned"] = "chunks_pruned"
    rollout: int
    turn: int
    chunk_ids: tuple[str, ...]
    freed_tokens: int


@dataclass(frozen=True, kw_only=True)
class BudgetLevelChanged:
    type: Literal["budget_level_changed"] = "budget_level_changed"
    rollout: int
    turn: int
    level: BudgetLevel
    used: int
    limit: int


@dataclass(frozen=True, kw_only=True)
class TurnRecorded:
    """Per model call: prompt and prefix-cached tokens, so cache reuse after pruning is measured."""

    type: Literal["turn_recorded"] = "turn_recorded"
    rollout: int
    turn: int
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None
    context_tokens: int
    exact: bool  # counts from the backend's usage, not estimated


@dataclass(frozen=True, kw_only=True)
class RolloutFinished:
    type: Literal["rollout_finished"] = "rollout_finished"
    rollout: int
    turns: int
    reason: StopReason
    documents: tuple[RankedDocument, ...] = ()
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class RunFinished:
    type: Literal["run_finished"] = "run_finished"
    documents: tuple[RankedDocument, ...]
    rollouts_ok: int
    rollouts_failed: int


@dataclass(frozen=True, kw_only=True)
class RunFailed:
    type: Literal["run_failed"] = "run_failed"
    error: str


@dataclass(frozen=True, kw_only=True)
class RunCancelled:
    type: Literal["run_cancelled"] = "run_cancelled"
    reason: str


Event = (
    RunStarted
    | TurnStarted
    | ToolCalled
    | ToolReturned
    | FusedRankingUpdated
    | ChunksPruned
    | BudgetLevelChanged
    | TurnRecorded
    | RolloutFinished
    | RunFinished
    | RunFailed
    | RunCancelled
)

EVENT_TYPES: dict[str, type[Any]] = {
    str(cls.__dataclass_fields__["type"].default): cls
    for cls in (
        RunStarted,
        TurnStarted,
        ToolCalled,
        ToolReturned,
        FusedRankingUpdated,
        ChunksPruned,
        BudgetLevelChanged,
        TurnRecorded,
        RolloutFinished,
        RunFinished,
        RunFailed,
        RunCancelled,
    )
}


def to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict (tuples become lists)."""
    return dataclasses.asdict(event)


def from_dict(data: dict[str, Any]) -> Event:
    """The inverse of :func:`to_dict`."""
    cls = EVENT_TYPES[data["type"]]
    values = {key: value for key, value in data.items() if key != "type"}
    if "chunks" in values:
        values["chunks"] = tuple(ChunkRef(**chunk) for chunk in values["chunks"])
    if "documents" in values:
        values["documents"] = tuple(_document(doc) for doc in values["documents"])
    if "chunk_ids" in values:
        values["chunk_ids"] = tuple(values["chunk_ids"])
    event: Event = cls(**values)
    return event


def _document(data: dict[str, Any]) -> RankedDocument:
    return RankedDocument(**{**data, "chunk_ids": tuple(data["chunk_ids"])})


class ListSink:
    """Collects events in memory (tests, CLI)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
