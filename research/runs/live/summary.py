"""One line of words per run event, for the run page's event log (what happened, not just its type)."""

from __future__ import annotations

import json
from typing import assert_never

from research.protocol.events import (
    COMPLETE,
    CORPUS_TOOLS,
    FETCH,
    PRUNE,
    WEB_SEARCH,
    AnyEvent,
    BudgetLevelChanged,
    CancelRequested,
    ChunksPruned,
    FusedRankingUpdated,
    ReportWritten,
    RolloutFinished,
    RunCancelled,
    RunFailed,
    RunFinished,
    RunRequeued,
    RunRestarted,
    RunStarted,
    ToolCalled,
    ToolReturned,
    TurnRecorded,
    TurnStarted,
    WritingFailed,
    WritingStarted,
)
from research.runs.journal import UnreadableEvent

TOOL_LABELS = {"search_corpus": "search", "grep_corpus": "grep", "read_document": "read", PRUNE: "prune"}
TOOL_LABELS.update({COMPLETE: "complete", WEB_SEARCH: "web search", FETCH: "fetch"})
QUERY_SHOWN = 160  # characters of a sub-query the log line keeps


def _clip(text: str, size: int = QUERY_SHOWN) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 1] + "…"


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def named_ids(event: ToolCalled) -> list[str]:
    """The chunk ids a prune or complete call names (none when its arguments are not what the tool takes)."""
    key = {PRUNE: "chunk_ids", COMPLETE: "ranked_chunk_ids"}.get(event.tool)
    try:
        value = json.loads(event.arguments).get(key) if key else None
    except (ValueError, AttributeError):
        return []
    return [str(item) for item in value] if isinstance(value, list) else []


def _returned(event: ToolReturned) -> str:
    label = TOOL_LABELS.get(event.tool, event.tool)
    if event.page is not None and event.page.outcome in ("refused", "failed"):
        return f"{label} {event.page.outcome}: {_clip(event.page.url)}: {_clip(event.page.reason)}"
    if event.error:
        return f"{label} failed: {_clip(event.error.removeprefix('Error: '))}"
    if event.tool == WEB_SEARCH:
        return f"{label} returned {_plural(len(event.results), 'result')}"
    if event.page is not None:
        new = sum(1 for chunk in event.chunks if chunk.new)
        return f"{label} {_clip(event.page.url)}: {event.page.outcome}, {_plural(new, 'new chunk')}"
    if event.tool not in CORPUS_TOOLS:
        return f"{label} done"
    new = sum(1 for chunk in event.chunks if chunk.new)
    left = f", {event.omitted:,} left out for the budget" if event.omitted else ""
    return f"{label} returned {_plural(len(event.chunks), 'chunk')} ({new:,} new){left}"


def _tool_line(event: ToolCalled | ToolReturned | ChunksPruned) -> str:
    match event:
        case ToolCalled():
            ids = named_ids(event)
            what = _plural(len(ids), "chunk") if ids else _clip(event.query)
            return f"{TOOL_LABELS.get(event.tool, event.tool)}: {what}"
        case ToolReturned():
            return _returned(event)
        case ChunksPruned():
            return f"pruned {_plural(len(event.chunk_ids), 'chunk')}, {event.freed_tokens:,} tokens freed"
        case _:
            assert_never(event)


def _progress_line(event: TurnStarted | BudgetLevelChanged | TurnRecorded | RolloutFinished) -> str:
    match event:
        case TurnStarted():
            return f"turn {event.turn}"
        case BudgetLevelChanged():
            return f"budget {event.level}: {event.used:,} of {event.limit:,} tokens"
        case TurnRecorded():
            cached = f", {event.cached_tokens:,} cached" if event.cached_tokens else ""
            return f"model call: {event.prompt_tokens:,} prompt + {event.completion_tokens:,} reply tokens{cached}"
        case RolloutFinished():
            error = f": {_clip(event.error)}" if event.error else ""
            docs = _plural(len(event.documents), "document")
            return f"ended ({event.reason}) after {_plural(event.turns, 'turn')}, {docs}{error}"
        case _:
            assert_never(event)


def _run_line(event: RunStarted | FusedRankingUpdated | RunFinished | RunFailed | RunCancelled) -> str:
    match event:
        case RunStarted():
            return f"started: {_plural(event.rollouts, 'rollout')}, {event.budget:,} tokens each"
        case FusedRankingUpdated():
            first = f", first: {_clip(event.documents[0].title, 80)}" if event.documents else ""
            return f"fused ranking: {_plural(len(event.documents), 'document')}{first}"
        case RunFinished():
            return f"finished: {_plural(len(event.documents), 'document')}"
        case RunFailed():
            return f"failed: {_clip(event.error)}"
        case RunCancelled():
            return f"cancelled ({_clip(event.reason)}): {_plural(len(event.documents), 'document')} found"
        case _:
            assert_never(event)


def _journal_line(event: RunRequeued | RunRestarted | CancelRequested | UnreadableEvent) -> str:
    match event:
        case RunRequeued():
            return f"re-queued: {_clip(event.reason)}"
        case RunRestarted():
            return f"restarted as attempt {event.attempt}: {_clip(event.reason)}"
        case CancelRequested():
            return f"cancel requested{f' by {event.by}' if event.by else ''}: {_clip(event.reason)}"
        case UnreadableEvent():
            return f"unreadable event: {_clip(event.error)}"
        case _:
            assert_never(event)


def _writing_line(event: WritingStarted | ReportWritten | WritingFailed) -> str:
    match event:
        case WritingStarted():
            return f"writing the answer ({event.writer} writer) from {_plural(event.evidence, 'chunk')}"
        case ReportWritten():
            shown = sum(1 for _ in event.report.summary) + sum(len(s.claims) for s in event.report.sections)
            removed = f", {_plural(len(event.report.removed), 'claim')} removed" if event.report.removed else ""
            return f"answer written: {_plural(shown, 'verified claim')}{removed}"
        case WritingFailed():
            return f"writing failed: {_clip(event.error)}"
        case _:
            assert_never(event)


def summary(event: AnyEvent | UnreadableEvent) -> str:
    """What ``event`` says, in a few words."""
    match event:
        case RunStarted() | FusedRankingUpdated() | RunFinished() | RunFailed() | RunCancelled():
            return _run_line(event)
        case RunRequeued() | RunRestarted() | CancelRequested() | UnreadableEvent():
            return _journal_line(event)
        case ToolCalled() | ToolReturned() | ChunksPruned():
            return f"rollout {event.rollout + 1}: {_tool_line(event)}"
        case TurnStarted() | BudgetLevelChanged() | TurnRecorded() | RolloutFinished():
            return f"rollout {event.rollout + 1}: {_progress_line(event)}"
        case WritingStarted() | ReportWritten() | WritingFailed():
            return _writing_line(event)
        case _:
            assert_never(event)
