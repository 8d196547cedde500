"""What the run page shows, folded from a run's typed events; each step of the fold says what it changed.

The page renders this state on a plain load. The socket folds the same events into its own copy and
sends, for each event, the fragments of what that event changed (research/runs/live/fragments.py),
rendered from the same partials, so a page loaded at seq N and then fed events N+1... shows exactly
what a page loaded later shows. Events are the typed ones of research/protocol/events.py: the match
in ``_fold`` is exhaustive (mypy checks it), so a new event kind fails type checking until the page
knows what it means.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import assert_never
from urllib.parse import quote, urlencode

from research.protocol.events import (
    CORPUS_TOOLS,
    FETCH,
    WEB_SEARCH,
    AnyEvent,
    BudgetLevelChanged,
    CancelRequested,
    ChunkRef,
    ChunksPruned,
    FusedRankingUpdated,
    PageRef,
    RankedDocument,
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
    WebHit,
    WritingFailed,
    WritingStarted,
)
from research.reporting.kinds import KINDS
from research.reporting.presenting import ReportView
from research.runs.journal import StoredEvent, UnreadableEvent
from research.runs.live.summary import TOOL_LABELS, named_ids, summary

STATUS_LABELS = {
    "queued": "Queued",
    "running": "Running",
    "cancelling": "Cancelling",
    "finished": "Finished",
    "failed": "Failed",
    "cancelled": "Cancelled",
}
TERMINAL = frozenset({"finished", "failed", "cancelled"})

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def dom_id(value: object) -> str:
    """A string usable inside an element id: anything but letters, digits, - and _ becomes _ plus its code."""
    return _UNSAFE.sub(lambda match: f"_{ord(match.group()):x}", str(value))


def document_href(doc_id: str, chunk_ids: Iterable[str]) -> str:
    """The run's document viewer, relative to the run page, highlighting the given chunks."""
    query = urlencode([("highlight", chunk_id) for chunk_id in chunk_ids])
    return f"d/{quote(doc_id, safe='')}/" + (f"?{query}" if query else "")


# --- what the page draws ---------------------------------------------------------------------------------
@dataclass
class ChunkView:
    chunk_id: str
    doc_id: str
    title: str
    score: float
    new: bool
    pruned: bool = False

    @classmethod
    def of(cls, ref: ChunkRef) -> ChunkView:
        return cls(ref.chunk_id, ref.doc_id, ref.title, ref.score, ref.new)

    @property
    def dom(self) -> str:
        return dom_id(self.chunk_id)

    @property
    def href(self) -> str:
        return document_href(self.doc_id, [self.chunk_id])


@dataclass(frozen=True)
class ChunkName:
    """A chunk named by its document's title (its id shown on hover)."""

    chunk_id: str
    title: str


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
    named: list[ChunkName] = field(default_factory=list)  # the chunks a prune or complete names
    results: tuple[WebHit, ...] = ()  # a web search's hits
    page: PageRef | None = None  # what a fetch_url did

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
        return self.tool in CORPUS_TOOLS or self.tool == FETCH

    @property
    def is_web_search(self) -> bool:
        return self.tool == WEB_SEARCH

    @property
    def tool_label(self) -> str:
        return TOOL_LABELS.get(self.tool, self.tool)


@dataclass
class PruneView:
    rollout: int
    turn: int
    chunks: list[ChunkName]
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
    ending: RolloutFinished | None = None
    label: str = ""  # a report's facet (empty: "Rollout N")

    @property
    def heading(self) -> str:
        return self.label or f"Rollout {self.index + 1}"

    def find_turn(self, number: int) -> TurnView | None:
        return next((turn for turn in reversed(self.turns) if turn.turn == number), None)

    def names(self, chunk_ids: Iterable[str]) -> list[ChunkName]:
        """The chunks as this rollout saw them: each with its document's title (its id when never shown)."""
        titles = {c.chunk_id: c.title or c.doc_id for call in self.calls() for c in call.chunks}
        return [ChunkName(chunk_id, titles.get(chunk_id, chunk_id)) for chunk_id in chunk_ids]

    def calls(self) -> Iterable[CallView]:
        for turn in self.turns:
            yield from (item for item in turn.items if isinstance(item, CallView))

    @property
    def ending_status(self) -> str:
        """How the rollout's badge reads: finished, cancelled or failed (empty while it runs)."""
        if self.ending is None:
            return ""
        return "failed" if self.ending.error else "cancelled" if self.ending.reason == "cancelled" else "finished"


@dataclass(frozen=True)
class DocumentView:
    """A ranked document with its viewer link and its agreement drawn as dots."""

    doc_id: str
    title: str
    score: float
    chunk_ids: tuple[str, ...]
    agreement: int

    @classmethod
    def of(cls, document: RankedDocument) -> DocumentView:
        return cls(document.doc_id, document.title, document.score, document.chunk_ids, document.agreement)

    @property
    def href(self) -> str:
        return document_href(self.doc_id, self.chunk_ids)

    @property
    def dots(self) -> str:
        return "●" * self.agreement


@dataclass
class LogLine:
    seq: int
    type: str
    attempt: int
    summary: str = ""  # what happened, in words


@dataclass
class AnswerState:
    """The written answer: ``status`` is "" before writing, then "writing", "written" or "failed"."""

    status: str = ""
    writer: str = ""
    chunks: int = 0
    report: ReportView | None = None
    error: str = ""
    template: str = "question"  # "competitor": a report with a section per facet

    @property
    def is_report(self) -> bool:
        return self.template in KINDS and KINDS[self.template].about_company


@dataclass
class RunState:
    question: str = ""
    status: str = "queued"
    reason: str = ""
    started_at: str | None = None  # the run_started event's time (ISO)
    ended_at: str | None = None
    attempt: int = 1
    rollouts: list[RolloutView] | None = None  # None until the (latest attempt's) run_started
    ranking: list[DocumentView] = field(default_factory=list)
    final: list[DocumentView] | None = None  # the run's ranking: when it finished, or what it had when cancelled
    log: list[LogLine] = field(default_factory=list)
    last_seq: int = 0
    restarting: bool = False  # a later attempt started over and its rollouts have not started yet
    answer: AnswerState = field(default_factory=AnswerState)

    @property
    def done(self) -> bool:
        return self.status in TERMINAL

    def calls(self) -> Iterable[CallView]:
        for rollout in self.rollouts or ():
            yield from rollout.calls()

    def rollout(self, index: int) -> RolloutView | None:
        if self.rollouts is None or not 0 <= index < len(self.rollouts):
            return None
        return self.rollouts[index]


# --- what one event changed ------------------------------------------------------------------------------
@dataclass(frozen=True)
class LogAppended:
    line: LogLine


@dataclass(frozen=True)
class StatusChanged:
    pass


@dataclass(frozen=True)
class ClockStarted:
    pass


@dataclass(frozen=True)
class RunEnded:
    pass


@dataclass(frozen=True)
class ClockStopped:
    """The run's last step after its end (its answer written, or failed to be) moved the clock's end."""


@dataclass(frozen=True)
class RolloutsReset:
    pass


@dataclass(frozen=True)
class TurnAdded:
    rollout: int
    turn: int


@dataclass(frozen=True)
class CallAdded:
    rollout: int
    turn: int
    call_id: str


@dataclass(frozen=True)
class CallReturned:
    rollout: int
    turn: int
    call_id: str


@dataclass(frozen=True)
class PruneAdded:
    rollout: int
    turn: int


@dataclass(frozen=True)
class ChunksMarkedPruned:
    rollout: int
    chunk_ids: tuple[str, ...]


@dataclass(frozen=True)
class GaugeMoved:
    rollout: int
    level_changed: bool


@dataclass(frozen=True)
class RolloutEnded:
    rollout: int


@dataclass(frozen=True)
class RankingChanged:
    pass


@dataclass(frozen=True)
class FinalChanged:
    pass


@dataclass(frozen=True)
class AnswerChanged:
    pass


Change = (
    LogAppended
    | StatusChanged
    | ClockStarted
    | RunEnded
    | ClockStopped
    | RolloutsReset
    | TurnAdded
    | CallAdded
    | CallReturned
    | PruneAdded
    | ChunksMarkedPruned
    | GaugeMoved
    | RolloutEnded
    | RankingChanged
    | FinalChanged
    | AnswerChanged
)


# --- the fold ---------------------------------------------------------------------------------------------
def run_state(events: Iterable[StoredEvent], *, question: str = "") -> RunState:
    """Fold stored events into the page's state."""
    state = RunState(question=question)
    for event in events:
        apply(state, event)
    return state


def apply(state: RunState, stored: StoredEvent) -> list[Change]:
    """Fold one stored event into ``state``; what it changed, in the order the page shows it."""
    state.last_seq, state.attempt = stored.seq, stored.attempt
    event = stored.event()
    line = LogLine(stored.seq, stored.type, stored.attempt, summary(event))
    state.log.append(line)
    return [LogAppended(line), *_fold(state, event, stored.at.isoformat())]


def _fold(state: RunState, event: AnyEvent | UnreadableEvent, at: str) -> list[Change]:
    match event:
        case (
            RunStarted()
            | RunRestarted()
            | RunRequeued()
            | CancelRequested()
            | RunFinished()
            | RunFailed()
            | RunCancelled()
        ):
            return _fold_run(state, event, at)
        case FusedRankingUpdated():
            state.ranking = [DocumentView.of(document) for document in event.documents]
            return [RankingChanged()]
        case TurnStarted() | ToolCalled() | ToolReturned() | ChunksPruned():
            return _fold_turn(state, event)
        case BudgetLevelChanged() | TurnRecorded() | RolloutFinished():
            return _fold_rollout(state, event)
        case WritingStarted() | ReportWritten() | WritingFailed():
            return _fold_answer(state, event, at)
        case UnreadableEvent():
            return []
        case _:
            assert_never(event)


def _answer(answer: AnswerState, event: WritingStarted | ReportWritten | WritingFailed) -> AnswerState:
    match event:
        case WritingStarted():
            return AnswerState("writing", event.writer, event.evidence, template=event.template)
        case ReportWritten():
            view = ReportView.of(event.report)
            return AnswerState("written", event.report.writer, answer.chunks, view, template=event.report.template)
        case WritingFailed():
            return AnswerState("failed", answer.writer, answer.chunks, error=event.error, template=answer.template)
        case _:
            assert_never(event)


def _fold_answer(state: RunState, event: WritingStarted | ReportWritten | WritingFailed, at: str) -> list[Change]:
    state.answer = _answer(state.answer, event)
    if isinstance(event, WritingStarted) or state.status not in TERMINAL:
        return [AnswerChanged()]
    state.ended_at = at  # the run ends when its answer is written or has failed (as Run.finished_at says)
    return [AnswerChanged(), ClockStopped()]


RunLevelEvent = RunStarted | RunRestarted | RunRequeued | CancelRequested | RunFinished | RunFailed | RunCancelled


def _fold_run(state: RunState, event: RunLevelEvent, at: str) -> list[Change]:
    """Events that change the run's status (and, starting or finishing, what it shows)."""
    match event:
        case RunStarted():
            changes = [*_status(state, "running", "", at), *_started(state, event, at)]
        case RunRestarted():
            state.rollouts, state.ranking, state.final, state.restarting = None, [], None, True
            state.answer = AnswerState()
            changes = [*_status(state, "running", event.reason, at), RolloutsReset(), AnswerChanged()]
        case RunRequeued():
            changes = _status(state, "queued", event.reason, at)
        case CancelRequested():
            changes = _status(state, "cancelling", event.reason, at)
        case RunFinished() | RunCancelled():
            # the fused ranking ends as the final fusion (of each rollout's chosen documents): the two lists agree
            state.final = [DocumentView.of(document) for document in event.documents]
            state.ranking = list(state.final) or state.ranking  # none chosen: the last running fusion stays
            reason = event.reason if isinstance(event, RunCancelled) else ""
            changes = [*_status(state, event.type.removeprefix("run_"), reason, at), RankingChanged(), FinalChanged()]
        case RunFailed():
            changes = [*_status(state, "failed", event.error, at), FinalChanged()]
        case _:
            assert_never(event)
    return changes


def _status(state: RunState, status: str, reason: str, at: str) -> list[Change]:
    state.status, state.reason = status, reason
    changes: list[Change] = [StatusChanged()]
    if status in TERMINAL:
        state.ended_at = at
        changes.append(RunEnded())
    return changes


def _started(state: RunState, event: RunStarted, at: str) -> list[Change]:
    state.started_at, state.ended_at, state.restarting = at, None, False
    state.question = event.question or state.question
    labels = event.labels if len(event.labels) == event.rollouts else ("",) * event.rollouts
    state.rollouts = [RolloutView(r, GaugeView(r, event.budget), label=labels[r]) for r in range(event.rollouts)]
    state.ranking, state.final = [], None
    return [ClockStarted(), RolloutsReset()]


def _turn(rollout: RolloutView, number: int, changes: list[Change]) -> TurnView:
    """The rollout's turn ``number``, added (and the addition recorded) when it is new."""
    turn = rollout.find_turn(number)
    if turn is None:
        turn = TurnView(rollout.index, number)
        rollout.turns.append(turn)
        changes.append(TurnAdded(rollout.index, number))
    return turn


def _fold_turn(state: RunState, event: TurnStarted | ToolCalled | ToolReturned | ChunksPruned) -> list[Change]:
    rollout = state.rollout(event.rollout)
    if rollout is None:
        return []
    changes: list[Change] = []
    turn = _turn(rollout, event.turn, changes)
    match event:
        case TurnStarted():
            pass
        case ToolCalled():
            call = CallView(rollout.index, event.turn, event.call_id, event.tool, event.query)
            call.named = rollout.names(named_ids(event))
            turn.items.append(call)
            changes.append(CallAdded(rollout.index, event.turn, event.call_id))
        case ToolReturned():
            changes += _returned(turn, event)
        case ChunksPruned():
            changes += _pruned(rollout, turn, event)
        case _:
            assert_never(event)
    return changes


def _returned(turn: TurnView, event: ToolReturned) -> list[Change]:
    call = next((i for i in turn.items if isinstance(i, CallView) and i.call_id == event.call_id), None)
    if call is None:
        return []
    call.returned, call.chunks = True, [ChunkView.of(ref) for ref in event.chunks]
    call.error = event.error.removeprefix("Error: ") if event.error else None
    call.tokens, call.omitted = event.tokens, event.omitted
    call.results, call.page = event.results, event.page
    return [CallReturned(turn.rollout, turn.turn, event.call_id)]


def _pruned(rollout: RolloutView, turn: TurnView, event: ChunksPruned) -> list[Change]:
    turn.items.append(PruneView(rollout.index, event.turn, rollout.names(event.chunk_ids), event.freed_tokens))
    wanted, marked = set(event.chunk_ids), []
    for earlier in rollout.turns:
        for item in earlier.items:
            for chunk in item.chunks if isinstance(item, CallView) else ():
                if chunk.new and not chunk.pruned and chunk.chunk_id in wanted:
                    chunk.pruned = True
                    marked.append(chunk.chunk_id)
    return [PruneAdded(rollout.index, event.turn), ChunksMarkedPruned(rollout.index, tuple(marked))]


def _fold_rollout(state: RunState, event: BudgetLevelChanged | TurnRecorded | RolloutFinished) -> list[Change]:
    rollout = state.rollout(event.rollout)
    if rollout is None:
        return []
    match event:
        case BudgetLevelChanged():
            rollout.gauge.level, rollout.gauge.used = event.level, event.used
            rollout.gauge.limit = event.limit or rollout.gauge.limit
            return [GaugeMoved(rollout.index, level_changed=True)]
        case TurnRecorded():
            rollout.gauge.used = event.context_tokens
            return [GaugeMoved(rollout.index, level_changed=False)]
        case RolloutFinished():
            rollout.ending = event
            return [RolloutEnded(rollout.index)]
        case _:
            assert_never(event)
