"""How a stored run event is sent over the run socket: JSON for programs, HTML fragments for the page.

A format turns one stored event into the text of one WebSocket frame. ``json`` sends the event's
message (seq, type, payload, attempt, at). ``html`` folds the event into the socket's own copy of the
page state (research/runs/live/state.py) and renders what the fold says it changed, from the same
parts of templates/research/partials/run_parts.html that the page renders, each wrapped for htmx's
ws extension (``hx-swap-oob``: append a turn, a call or a prune, replace a call's result, a gauge,
the fused ranking, ...). So a page rendered at seq N and fed N+1... over the socket shows what a page
rendered later shows. Links in fragments are relative to the run page.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, assert_never

from django.template.loader import render_to_string
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from research.runs.journal import StoredEvent
from research.runs.limits import budget_thresholds
from research.runs.live.state import (
    STATUS_LABELS,
    AnswerChanged,
    CallAdded,
    CallReturned,
    CallView,
    Change,
    ChunksMarkedPruned,
    ClockStarted,
    ClockStopped,
    FinalChanged,
    GaugeMoved,
    LogAppended,
    PruneAdded,
    PruneView,
    RankingChanged,
    RolloutEnded,
    RolloutsReset,
    RolloutView,
    RunEnded,
    RunState,
    StatusChanged,
    TurnAdded,
    TurnView,
    apply,
    dom_id,
    run_state,
)

PARTS = "research/partials/run_parts.html"
GRAPH_REFRESH = (
    '<span id="graph-refresh" hx-swap-oob="true" hx-get="graph/" hx-trigger="load delay:400ms" '
    'hx-target="#run-graph" hx-swap="outerHTML"></span>'
)
PRUNED_MARK = mark_safe('<span class="pruned-mark">pruned</span>')  # the same mark the chunk part renders
CONTROLS_REMOVED = '<div id="run-controls" hx-swap-oob="true"></div><span id="live-note" hx-swap-oob="true"></span>'


def part(partial: str, **context: Any) -> str:
    return render_to_string(f"{PARTS}#{partial}", context)


def thresholds() -> dict[str, int]:
    """Where the gauges mark the soft threshold and the hard cutoff, in percent of the budget."""
    soft, hard = budget_thresholds()
    return {"soft_pct": soft, "hard_pct": hard}


def elapsed(started: str | None, ended: str | None, now: str | None = None) -> str:
    """``1 min 5 s`` between two ISO times (or to ``now``); empty when it has not started."""
    start = parse_datetime(started) if started else None
    end = parse_datetime(ended or now or "") if (ended or now) else None
    if start is None or end is None:
        return ""
    seconds = max(0, round((end - start).total_seconds()))  # as static/js/run.js rounds it
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"


def status_context(status: str, reason: str) -> dict[str, str]:
    return {"status": status, "status_label": STATUS_LABELS.get(status, status.title()), "reason": reason}


def state_context(state: RunState) -> dict[str, Any]:
    """What the page's parts need to render ``state`` (the page adds the run, the membership and its URLs)."""
    return {
        "rollouts": state.rollouts,
        "restarted": state.restarting,
        "ranking": state.ranking,
        "final": state.final,
        "final_status": state.status,
        "answer": state.answer,
        "log": state.log,
        **thresholds(),
    }


def _final(state: RunState) -> str:
    return part("final", final=state.final, final_status=state.status, ranking=state.ranking, oob=True)


def _append(target: str, html: str, tag: str = "ol") -> str:
    return str(format_html('<{} id="{}" hx-swap-oob="beforeend">{}</{}>', tag, target, html, tag))


def _turn(state: RunState, rollout: int, number: int) -> TurnView:
    found = state.rollouts[rollout].find_turn(number) if state.rollouts else None
    assert found is not None, (rollout, number)
    return found


def _call(state: RunState, rollout: int, number: int, call_id: str) -> CallView:
    return next(i for i in _turn(state, rollout, number).items if isinstance(i, CallView) and i.call_id == call_id)


def _rollout(state: RunState, index: int) -> RolloutView:
    found = state.rollout(index)
    assert found is not None, index
    return found


def _run_parts(
    change: StatusChanged | ClockStarted | RunEnded | ClockStopped | RolloutsReset, state: RunState
) -> list[str]:
    match change:
        case StatusChanged():
            status_html = part("status", **status_context(state.status, state.reason))
            return [format_html('<div hx-swap-oob="innerHTML:#run-status">{}</div>', status_html)]
        case ClockStarted():
            start = part("clock_mark", name="start", at=state.started_at, oob=True)
            return [start, part("clock_mark", name="end", at=None, oob=True)]
        case RunEnded():
            return [part("clock_mark", name="end", at=state.ended_at, oob=True), CONTROLS_REMOVED]
        case ClockStopped():
            return [part("clock_mark", name="end", at=state.ended_at, oob=True)]
        case RolloutsReset():
            rollouts = part("rollouts", rollouts=state.rollouts, restarted=state.restarting, oob=True, **thresholds())
            ranking = part("ranking", ranking=state.ranking, oob=True)
            return [rollouts, ranking, _final(state), GRAPH_REFRESH]
        case _:
            assert_never(change)


def _turn_parts(change: TurnAdded | CallAdded | CallReturned | PruneAdded, state: RunState) -> list[str]:
    r, number = change.rollout, change.turn
    match change:
        case TurnAdded():
            return [_append(f"r{r}-turns", part("turn", turn=_turn(state, r, number)))]
        case CallAdded():
            return [_append(f"r{r}-t{number}-items", part("call", call=_call(state, r, number, change.call_id)))]
        case CallReturned():
            return [part("call_result", call=_call(state, r, number, change.call_id), oob=True)]
        case PruneAdded():
            prune = [i for i in _turn(state, r, number).items if isinstance(i, PruneView)][-1]
            return [_append(f"r{r}-t{number}-items", part("prune", item=prune))]
        case _:
            assert_never(change)


def _rollout_parts(change: ChunksMarkedPruned | GaugeMoved | RolloutEnded, state: RunState) -> list[str]:
    rollout = _rollout(state, change.rollout)
    match change:
        case ChunksMarkedPruned():
            return [_append(f"r{rollout.index}-c-{dom_id(chunk)}", PRUNED_MARK, "span") for chunk in change.chunk_ids]
        case GaugeMoved():
            used = part("gauge_used", gauge=rollout.gauge, oob=True)
            return [used, part("gauge_level", gauge=rollout.gauge, oob=True)] if change.level_changed else [used]
        case RolloutEnded():
            ending = {"ending": rollout.ending, "ending_status": rollout.ending_status}
            return [part("rollout_ending", index=rollout.index, oob=True, **ending)]
        case _:
            assert_never(change)


def render(change: Change, state: RunState) -> list[str]:
    """The oob fragments that show ``change``, rendered from ``state`` (already folded)."""
    match change:
        case LogAppended():
            return [_append("run-events", part("log_line", line=change.line))]
        case StatusChanged() | ClockStarted() | RunEnded() | ClockStopped() | RolloutsReset():
            return _run_parts(change, state)
        case TurnAdded() | CallAdded() | CallReturned() | PruneAdded():
            return _turn_parts(change, state)
        case ChunksMarkedPruned() | GaugeMoved() | RolloutEnded():
            return _rollout_parts(change, state)
        case RankingChanged() | FinalChanged() | AnswerChanged():
            return _result_parts(change, state)
        case _:
            assert_never(change)


def _result_parts(change: RankingChanged | FinalChanged | AnswerChanged, state: RunState) -> list[str]:
    match change:
        case RankingChanged():
            return [part("ranking", ranking=state.ranking, oob=True), GRAPH_REFRESH]
        case FinalChanged():
            return [_final(state), _answer(state), GRAPH_REFRESH]
        case AnswerChanged():
            return [_answer(state)]
        case _:
            assert_never(change)


def _answer(state: RunState) -> str:
    return part("answer", answer=state.answer, final_status=state.status, oob=True)


class FragmentCache:
    """The fragments of recent events, by (run, seq, attempt, stored at), shared by the sockets of a process.

    Every html socket of a run folds the same stored events, in seq order, into a state of its own (a
    socket that joins late folds the earlier ones first), so what an event renders to is the same for
    all of them. Rendering it once per process rather than once per viewer is what keeps a run with
    many viewers cheap: ``bench_load`` measured Daphne at about 1 ms of CPU a fragment, paid once per
    viewer, as the limit of concurrent viewers. Only the rendering is shared; each socket still folds.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int, int, str], str] = OrderedDict()
        self._lock = threading.Lock()  # consumers share one event loop, but a renderer may be used anywhere
        self.hits = self.misses = 0

    def peek(self, key: tuple[int, int, int, str]) -> str | None:
        with self._lock:
            text = self._items.get(key)
            if text is not None:
                self._items.move_to_end(key)
                self.hits += 1
            return text

    def put(self, key: tuple[int, int, int, str], text: str) -> str:
        with self._lock:
            self.misses += 1
            self._items[key] = text
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return text


SHARED_FRAGMENTS = FragmentCache()


class HtmlRenderer:
    """The ``html`` format: folds each event into its own state, then renders what changed (with ``run_id``,
    through ``shared``: rendered once a process for every socket of the run).

    A socket whose next fragment is already shared does not even fold the event yet: it keeps it, and folds
    what it kept only when it has to render one itself (folding is deterministic, so later gives the same
    state). So the sockets that follow another of the same run cost a lookup an event, not a fold."""

    PENDING_MAX = 2_000  # events kept unfolded at most (then folded, so memory stays bounded)

    def __init__(self, state: RunState, *, run_id: int | None = None, shared: FragmentCache | None = None) -> None:
        self.state = state
        self.run_id, self.shared = run_id, shared
        self._pending: list[StoredEvent] = []

    def __call__(self, event: StoredEvent) -> str:
        if self.run_id is None or self.shared is None:
            return self._rendered(event)
        key = (self.run_id, event.seq, event.attempt, event.at.isoformat())
        text = self.shared.peek(key)
        if text is None:
            return self.shared.put(key, self._rendered(event))
        self._pending.append(event)
        if len(self._pending) >= self.PENDING_MAX:
            self._fold_pending()
        return text

    def _fold_pending(self) -> None:
        for kept in self._pending:
            apply(self.state, kept)
        self._pending.clear()

    def _rendered(self, event: StoredEvent) -> str:
        self._fold_pending()
        changes = apply(self.state, event)
        return "".join(fragment for change in changes for fragment in render(change, self.state))


def as_json(event: StoredEvent) -> str:
    return json.dumps(event.message(), separators=(",", ":"))


Renderer = Callable[[StoredEvent], str]
FORMATS = ("json", "html")


def renderer(name: str | None, seed: Callable[[], Iterable[StoredEvent]], *, run_id: int | None = None) -> Renderer:
    """The named format's renderer (JSON for an unknown or missing name). ``seed`` gives the events the
    client already has; only the html format reads them, to know the page it is changing. With ``run_id``
    (a socket's), fragments are shared with the process's other sockets of that run (``FragmentCache``)."""
    if name == "html":
        return HtmlRenderer(run_state(seed()), run_id=run_id, shared=SHARED_FRAGMENTS if run_id is not None else None)
    return as_json
