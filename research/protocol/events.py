"""A run's events, typed: what the harness emits and what the run's journal adds, from the worker to the page.

Frozen dataclasses with a ``type`` discriminator (the stored payload is ``to_dict(event)``, which keeps
it). ``Event`` is what the harness emits; ``JournalEvent`` what the Django side adds to a run's journal
(a re-queue, a restart, a cancel request); ``WritingEvent`` what the writer adds after the search (the
answer or report, research/protocol/report.py); ``AnyEvent`` is any of them. ``EVENT_TYPES`` is the one registry
of type names; add fields with defaults and never rename a ``type``, so stored events stay readable.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from research.protocol.report import Report, report_from_dict

BudgetLevel = Literal["ok", "soft", "hard"]
StopReason = Literal["answered", "completed", "max_turns", "budget", "failed", "cancelled"]

# The tools the harness offers the model, by the names events carry (``ToolCalled.tool``).
SEARCH, GREP, READ, PRUNE, COMPLETE = "search_corpus", "grep_corpus", "read_document", "prune_chunks", "complete"
WEB_SEARCH, FETCH = "web_search", "fetch_url"  # offered only when the run has web sources
CORPUS_TOOLS = frozenset({SEARCH, GREP, READ})  # the tools that return chunks of the corpus
WEB_TOOLS = frozenset({WEB_SEARCH, FETCH})


@dataclass(frozen=True, kw_only=True)
class ChunkRef:
    chunk_id: str
    doc_id: str
    title: str
    score: float
    new: bool = True  # False when a concurrent call of the same turn already returned it


@dataclass(frozen=True, kw_only=True)
class WebHit:
    """One result of a web search, as the model saw it."""

    url: str
    title: str
    snippet: str = ""
    published_date: str | None = None


@dataclass(frozen=True, kw_only=True)
class PageRef:
    """What a fetch_url did: fetched, unchanged (the site said so), cached (fetched recently), refused (the
    rules forbid it, with the reason) or failed (the site did not deliver)."""

    url: str
    outcome: str
    reason: str = ""
    doc_id: str = ""
    title: str = ""


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
    labels: tuple[str, ...] = ()  # a report's rollouts each search one facet: its name, per rollout


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
    results: tuple[WebHit, ...] = ()  # web_search
    page: PageRef | None = None  # fetch_url


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
    documents: tuple[RankedDocument, ...] = ()  # what the rollouts had found when it stopped, fused


@dataclass(frozen=True, kw_only=True)
class RunRequeued:
    """The sweeper found the run's worker gone and put the run back in the queue."""

    type: Literal["run_requeued"] = "run_requeued"
    attempt: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class RunRestarted:
    """A new attempt starts the run from the beginning; events of earlier attempts (through
    ``superseded_through``) are superseded, never renumbered."""

    type: Literal["run_restarted"] = "run_restarted"
    attempt: int
    reason: str
    max_attempts: int = 0
    superseded_through: int = 0


@dataclass(frozen=True, kw_only=True)
class CancelRequested:
    """A member asked to stop the run; it stops at its next turn boundary."""

    type: Literal["cancel_requested"] = "cancel_requested"
    reason: str
    by: str = ""


@dataclass(frozen=True, kw_only=True)
class WritingStarted:
    """The search finished; a writer turns the final documents' chunks into the answer (or report)."""

    type: Literal["writing_started"] = "writing_started"
    writer: str
    template: str = "question"
    evidence: int = 0  # the chunks it writes from (a field named "chunks" would be read as chunk refs)


@dataclass(frozen=True, kw_only=True)
class ReportWritten:
    """The written, citation-checked answer or report (what is shown, and what was removed and why)."""

    type: Literal["report_written"] = "report_written"
    report: Report


@dataclass(frozen=True, kw_only=True)
class WritingFailed:
    """The writer broke (a bug, a database error): the run keeps its documents, the page says why."""

    type: Literal["writing_failed"] = "writing_failed"
    error: str


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
JournalEvent = RunRequeued | RunRestarted | CancelRequested
WritingEvent = WritingStarted | ReportWritten | WritingFailed
AnyEvent = Event | JournalEvent | WritingEvent

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
        RunRequeued,
        RunRestarted,
        CancelRequested,
        WritingStarted,
        ReportWritten,
        WritingFailed,
    )
}


def to_dict(event: AnyEvent) -> dict[str, Any]:
    """A JSON-ready dict (tuples become lists)."""
    return dataclasses.asdict(event)


def from_dict(data: dict[str, Any]) -> AnyEvent:
    """The inverse of :func:`to_dict`; raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed dict."""
    cls = EVENT_TYPES[data["type"]]
    values = {key: value for key, value in data.items() if key != "type"}
    if "chunks" in values:
        values["chunks"] = tuple(ChunkRef(**chunk) for chunk in values["chunks"])
    if "documents" in values:
        values["documents"] = tuple(_document(doc) for doc in values["documents"])
    if "chunk_ids" in values:
        values["chunk_ids"] = tuple(values["chunk_ids"])
    if "labels" in values:
        values["labels"] = tuple(values["labels"])
    if "report" in values:
        values["report"] = report_from_dict(values["report"])
    if "results" in values:
        values["results"] = tuple(WebHit(**hit) for hit in values["results"])
    if values.get("page") is not None:
        values["page"] = PageRef(**values["page"])
    event: AnyEvent = cls(**values)
    return event


def _document(data: dict[str, Any]) -> RankedDocument:
    return RankedDocument(**{**data, "chunk_ids": tuple(data["chunk_ids"])})
