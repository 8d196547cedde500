"""What the run page shows, folded from a run's stored events: rollouts, turns, calls, gauges, rankings, status.

The page renders this state on a plain load; the socket sends one fragment per event that changes the
same elements in the same way (research/runs/live/fragments.py), so a page loaded at seq N and then fed
events N+1... shows exactly what a page loaded later shows. Payloads are the harness's events
(research/protocol/events.py) as JSON plus the journal's own kinds (research/runs/journal.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

SOFT_FRACTION = 0.5  # the harness's soft threshold (BudgetConfig.soft_fraction), half the budget

# Event kind -> the run status it means (kinds not listed leave the status alone).
STATUS_OF = {
    "run_started": "running", "run_restarted": "running", "run_requeued": "queued", "cancel_requested": "cancelling",
    "run_finished": "finished", "run_failed": "failed", "run_cancelled": "cancelled",
}  # fmt: skip
STATUS_LABELS = {
    "queued": "Queued", "running": "Running", "cancelling": "Cancelling", "finished": "Finished", "failed": "Failed",
    "cancelled": "Cancelled",
}  # fmt: skip
TERMINAL = frozenset({"finished", "failed", "cancelled"})

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
TOOL_LABELS = {
    "search_corpus": "search", "grep_corpus": "grep", "read_document": "read", "prune_chunks": "prune",
    "complete": "complete",
}  # fmt: skip
SEARCH_TOOLS = frozenset({"search_corpus", "grep_corpus", "read_document"})


def dom_id(value: object) -> str:
    """A string usable inside an element id: anything but letters, digits, - and _ becomes _ plus its code."""
    return _UNSAFE.sub(lambda match: f"_{ord(match.group()):x}", str(value))


def document_href(doc_id: str, chunk_ids: Iterable[str]) -> str:
    """The run's document viewer, relative to the run page, highlighting the given chunks."""
    query = urlencode([("highlight", chunk_id) for chunk_id in chunk_ids])
    return f"d/{quote(doc_id, safe='')}/" + (f"?{query}" if query else "")


@dataclass
class ChunkView:
    chunk_id: str
    doc_id: str
    title: str
    score: float
    new: bool
    pruned: bool = False

    @property
    def dom(self) -> str:
        return dom_id(self.chunk_id)

    @property
    def href(self) -> str:
        return document_href(self.doc_id, [self.chunk_id])


@dataclass
class CallView:
    rollout: int
    turn: int
    call_id: str
    tool: str
    query: str
    returned: bool = False
    chunks: list[ChunkView] = field(default_factory=list)
    tokens: int = 0
    omitted: int = 0
    error: str | None = None
    kind: str = "call"

    @property
    def new_count(self) -> int:
        return sum(1 for chunk in self.chunks if chunk.new)

    @property
    def seen_count(self) -> int:
        return len(self.chunks) - self.new_count

    @property
    def dom(self) -> str:
        return dom_id(self.call_id)

    @property
    def is_search(self) -> bool:
        return self.tool in SEARCH_TOOLS

    @property
    def tool_label(self) -> str:
        return TOOL_LABELS.get(self.tool, self.tool)


@dataclass
class PruneView:
    rollout: int
    turn: int
    chunk_ids: list[str]
    freed_tokens: int
    kind: str = "prune"


@dataclass
class TurnView:
    rollout: int
    turn: int
    items: list[CallView | PruneView] = field(default_factory=list)


@dataclass
class GaugeView:
    rollout: int
    limit: int
    used: int = 0
    level: str = "ok"

    @property
    def percent(self) -> float:
        return min(100.0, 100.0 * self.used / self.limit) if self.limit else 0.0


@dataclass
class RolloutView:
    index: int
    gauge: GaugeView
    turns: list[TurnView] = field(default_factory=list)
    ending: dict[str, Any] | None = None  # the rollout_finished payload

    def turn(self, number: int) -> TurnView:
        for turn in reversed(self.turns):
            if turn.turn == number:
                return turn
        turn = TurnView(self.index, number)
        self.turns.append(turn)
        return turn


@dataclass
class LogLine:
    seq: int
    type: str
    attempt: int


@dataclass
class RunState:
    question: str = ""
    status: str = "queued"
    reason: str = ""
    started_at: str | None = None  # the run_started event's time (ISO)
    ended_at: str | None = None
    attempt: int = 1
    rollouts: list[RolloutView] | None = None  # None until the (latest attempt's) run_started
    ranking: list[dict[str, Any]] = field(default_factory=list)
    final: list[dict[str, Any]] | None = None
    log: list[LogLine] = field(default_factory=list)
    last_seq: int = 0

    @property
    def done(self) -> bool:
        return self.status in TERMINAL

    def calls(self) -> Iterable[CallView]:
        for rollout in self.rollouts or ():
            for turn in rollout.turns:
                yield from (item for item in turn.items if isinstance(item, CallView))


def run_state(events: Iterable[Mapping[str, Any]], *, question: str = "") -> RunState:
    """Fold event messages (``{"seq", "type", "payload", "attempt", "at"}``) into the page's state."""
    state = RunState(question=question)
    for message in events:
        apply(state, message)
    return state


def apply(state: RunState, message: Mapping[str, Any]) -> None:
    kind, payload = str(message["type"]), message.get("payload") or {}
    state.last_seq = int(message["seq"])
    state.attempt = int(message.get("attempt") or state.attempt)
    state.log.append(LogLine(state.last_seq, kind, state.attempt))
    _apply_status(state, kind, payload, message.get("at"))
    handler = _HANDLERS.get(kind)
    if handler is not None:
        handler(state, payload)


def _apply_status(state: RunState, kind: str, payload: Mapping[str, Any], at: str | None) -> None:
    status = STATUS_OF.get(kind)
    if status is None:
        return
    state.status = status
    state.reason = str(payload.get("reason") or payload.get("error") or "")
    if kind == "run_started":
        state.started_at, state.ended_at = at, None
    elif status in TERMINAL:
        state.ended_at = at


def _started(state: RunState, payload: Mapping[str, Any]) -> None:
    state.question = str(payload.get("question") or state.question)
    budget = int(payload.get("budget") or 0)
    state.rollouts = [RolloutView(r, GaugeView(r, budget)) for r in range(int(payload.get("rollouts") or 0))]
    state.ranking, state.final = [], None


def _restarted(state: RunState, payload: Mapping[str, Any]) -> None:
    state.rollouts, state.ranking, state.final = None, [], None


def _rollout(state: RunState, payload: Mapping[str, Any]) -> RolloutView | None:
    index = int(payload.get("rollout", -1))
    if state.rollouts is None or not 0 <= index < len(state.rollouts):
        return None
    return state.rollouts[index]


def _turn_started(state: RunState, payload: Mapping[str, Any]) -> None:
    if (rollout := _rollout(state, payload)) is not None:
        rollout.turn(int(payload["turn"]))


def _tool_called(state: RunState, payload: Mapping[str, Any]) -> None:
    if (rollout := _rollout(state, payload)) is not None:
        call = CallView(rollout.index, int(payload["turn"]), str(payload["call_id"]), str(payload["tool"]),
                        str(payload.get("query", "")))  # fmt: skip
        rollout.turn(call.turn).items.append(call)


def _tool_returned(state: RunState, payload: Mapping[str, Any]) -> None:
    if (rollout := _rollout(state, payload)) is None:
        return
    for item in rollout.turn(int(payload["turn"])).items:
        if isinstance(item, CallView) and item.call_id == payload["call_id"]:
            item.returned, item.chunks, item.error = True, chunks_of(payload), payload.get("error")
            item.tokens, item.omitted = int(payload.get("tokens", 0)), int(payload.get("omitted", 0))


def chunks_of(payload: Mapping[str, Any]) -> list[ChunkView]:
    return [_chunk(c) for c in payload.get("chunks") or ()]


def _chunk(c: Mapping[str, Any]) -> ChunkView:
    return ChunkView(
        str(c["chunk_id"]), str(c["doc_id"]), str(c.get("title", "")), float(c.get("score", 0.0)),
        bool(c.get("new", True)),
    )  # fmt: skip


def _pruned(state: RunState, payload: Mapping[str, Any]) -> None:
    if (rollout := _rollout(state, payload)) is None:
        return
    ids = [str(chunk_id) for chunk_id in payload.get("chunk_ids") or ()]
    rollout.turn(int(payload["turn"])).items.append(
        PruneView(rollout.index, int(payload["turn"]), ids, int(payload.get("freed_tokens", 0)))
    )
    wanted = set(ids)
    for turn in rollout.turns:
        for item in turn.items:
            for chunk in item.chunks if isinstance(item, CallView) else ():
                if chunk.new and chunk.chunk_id in wanted:
                    chunk.pruned = True


def _level(state: RunState, payload: Mapping[str, Any]) -> None:
    if (rollout := _rollout(state, payload)) is not None:
        rollout.gauge.level, rollout.gauge.used = str(payload["level"]), int(payload.get("used", rollout.gauge.used))
        rollout.gauge.limit = int(payload.get("limit") or rollout.gauge.limit)


def _recorded(state: RunState, payload: Mapping[str, Any]) -> None:
    if (rollout := _rollout(state, payload)) is not None:
        rollout.gauge.used = int(payload.get("context_tokens", rollout.gauge.used))


def _fused(state: RunState, payload: Mapping[str, Any]) -> None:
    state.ranking = list(payload.get("documents") or [])


def _rollout_finished(state: RunState, payload: Mapping[str, Any]) -> None:
    if (rollout := _rollout(state, payload)) is not None:
        rollout.ending = dict(payload)


def _run_finished(state: RunState, payload: Mapping[str, Any]) -> None:
    state.final = list(payload.get("documents") or [])


_HANDLERS = {
    "run_started": _started, "run_restarted": _restarted, "turn_started": _turn_started,
    "tool_called": _tool_called, "tool_returned": _tool_returned, "chunks_pruned": _pruned,
    "budget_level_changed": _level, "turn_recorded": _recorded, "fused_ranking_updated": _fused,
    "rollout_finished": _rollout_finished, "run_finished": _run_finished,
}  # fmt: skip
