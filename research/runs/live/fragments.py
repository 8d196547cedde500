"""How a stored run event is sent over the run socket: JSON for programs, HTML fragments for the page.

The socket calls ``render(format, message)`` for every event; a format is a function from the event
message (``StoredEvent.message()``: seq, type, payload, attempt, at) to the text of one WebSocket
frame. ``html`` renders the parts of templates/research/partials/run_parts.html that the event
changes, each wrapped for htmx's ws extension (``hx-swap-oob``: append a turn, a call or a prune,
replace a call's result, a gauge, the fused ranking, ...). The page renders the same parts from the
state folded from the stored events (research/runs/live/state.py), so a page rendered at seq N and fed
N+1... over the socket shows what a page rendered later shows. A fragment needs nothing but its
event: links are relative to the run page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from research.runs.live.state import (
    STATUS_LABELS,
    STATUS_OF,
    TERMINAL,
    CallView,
    GaugeView,
    LogLine,
    PruneView,
    RolloutView,
    RunState,
    TurnView,
    chunks_of,
    document_href,
    dom_id,
)

Message = dict[str, Any]
PARTS = "research/partials/run_parts.html"
GRAPH_REFRESH = (
    '<span id="graph-refresh" hx-swap-oob="true" hx-get="graph/" hx-trigger="load delay:400ms" '
    'hx-target="#run-graph" hx-swap="outerHTML"></span>'
)

PRUNED_MARK = mark_safe('<span class="pruned-mark">pruned</span>')  # the same mark the chunk part renders


def part(partial: str, **context: Any) -> str:
    return render_to_string(f"{PARTS}#{partial}", context)


def thresholds() -> dict[str, int]:
    """Where the gauges mark the soft threshold and the hard cutoff, in percent of the budget."""
    return {"soft_pct": 50, "hard_pct": round(100 * settings.BUDGET_HARD_FRACTION)}


def ranked(documents: Iterable[Mapping[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Ranked documents (RankedDocument payloads) with their viewer links and agreement marks."""
    if documents is None:
        return None
    return [_ranked_document(doc) for doc in documents]


def _ranked_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    href = document_href(str(doc["doc_id"]), doc.get("chunk_ids") or ())
    return {**doc, "href": href, "dots": "●" * int(doc.get("agreement", 1))}


def elapsed(started: str | None, ended: str | None, now: str | None = None) -> str:
    """``1 min 5 s`` between two ISO times (or to ``now``); empty when it has not started."""
    start = parse_datetime(started) if started else None
    end = parse_datetime(ended or now or "") if (ended or now) else None
    if start is None or end is None:
        return ""
    seconds = max(0, int((end - start).total_seconds()))
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"


def status_context(status: str, reason: str) -> dict[str, str]:
    return {"status": status, "status_label": STATUS_LABELS.get(status, status.title()), "reason": reason}


def state_context(state: RunState) -> dict[str, Any]:
    """What the page's parts need to render ``state`` (the page adds the run, the membership and its URLs)."""
    return {
        "rollouts": state.rollouts, "restarted": state.attempt > 1 and state.rollouts is None,
        "ranking": ranked(state.ranking), "final": ranked(state.final), "log": state.log, **thresholds(),
    }  # fmt: skip


def _append(target: str, html: str, tag: str = "ol") -> str:
    return str(format_html('<{} id="{}" hx-swap-oob="beforeend">{}</{}>', tag, target, html, tag))


def _int(payload: Mapping[str, Any], key: str) -> int:
    return int(payload.get(key, 0) or 0)


def _status_parts(kind: str, payload: Mapping[str, Any], at: str | None) -> list[str]:
    status = STATUS_OF[kind]
    reason = str(payload.get("reason") or payload.get("error") or "")
    status_html = part("status", **status_context(status, reason))
    parts: list[str] = [format_html('<div hx-swap-oob="innerHTML:#run-status">{}</div>', status_html)]
    if kind == "run_started":
        parts += [part("clock_mark", name="start", at=at, oob=True), part("clock_mark", name="end", at=None, oob=True)]
    if status in TERMINAL:
        parts += [part("clock_mark", name="end", at=at, oob=True), '<div id="run-controls" hx-swap-oob="true"></div>']
    return parts


def _run_parts(kind: str, payload: Mapping[str, Any]) -> list[str]:
    if kind in ("run_started", "run_restarted"):
        budget, count = _int(payload, "budget"), _int(payload, "rollouts")
        rollouts = [RolloutView(r, GaugeView(r, budget)) for r in range(count)] if kind == "run_started" else None
        return [
            part("rollouts", rollouts=rollouts, restarted=kind == "run_restarted", oob=True, **thresholds()),
            part("ranking", ranking=[], oob=True),
            part("final", final=None, oob=True),
            GRAPH_REFRESH,
        ]
    if kind == "fused_ranking_updated":
        return [part("ranking", ranking=ranked(payload.get("documents") or []), oob=True), GRAPH_REFRESH]
    if kind == "run_finished":
        return [part("final", final=ranked(payload.get("documents") or []), oob=True), GRAPH_REFRESH]
    return []


def _turn_started(r: int, turn: int, payload: Mapping[str, Any]) -> list[str]:
    return [_append(f"r{r}-turns", part("turn", turn=TurnView(r, turn)))]


def _tool_called(r: int, turn: int, payload: Mapping[str, Any]) -> list[str]:
    call = CallView(r, turn, str(payload["call_id"]), str(payload["tool"]), str(payload.get("query", "")))
    return [_append(f"r{r}-t{turn}-items", part("call", call=call))]


def _tool_returned(r: int, turn: int, payload: Mapping[str, Any]) -> list[str]:
    call = CallView(
        r, turn, str(payload["call_id"]), str(payload["tool"]), "", returned=True, chunks=chunks_of(payload),
        tokens=_int(payload, "tokens"), omitted=_int(payload, "omitted"), error=payload.get("error"),
    )  # fmt: skip
    return [part("call_result", call=call, oob=True)]


def _chunks_pruned(r: int, turn: int, payload: Mapping[str, Any]) -> list[str]:
    ids = [str(chunk_id) for chunk_id in payload.get("chunk_ids") or ()]
    prune = PruneView(r, turn, ids, _int(payload, "freed_tokens"))
    marks = [_append(f"r{r}-c-{dom_id(chunk_id)}", PRUNED_MARK, "span") for chunk_id in ids]
    return [_append(f"r{r}-t{turn}-items", part("prune", item=prune)), *marks]


def _budget_level_changed(r: int, turn: int, payload: Mapping[str, Any]) -> list[str]:
    gauge = GaugeView(r, _int(payload, "limit"), _int(payload, "used"), str(payload.get("level", "ok")))
    return [part("gauge_used", gauge=gauge, oob=True), part("gauge_level", gauge=gauge, oob=True)]


def _turn_recorded(r: int, turn: int, payload: Mapping[str, Any]) -> list[str]:
    return [part("gauge_used", gauge=GaugeView(r, 0, _int(payload, "context_tokens")), oob=True)]


def _rollout_finished(r: int, turn: int, payload: Mapping[str, Any]) -> list[str]:
    return [part("rollout_ending", index=r, ending=dict(payload), oob=True)]


_ROLLOUT_PARTS: dict[str, Callable[[int, int, Mapping[str, Any]], list[str]]] = {
    "turn_started": _turn_started, "tool_called": _tool_called, "tool_returned": _tool_returned,
    "chunks_pruned": _chunks_pruned, "budget_level_changed": _budget_level_changed, "turn_recorded": _turn_recorded,
    "rollout_finished": _rollout_finished,
}  # fmt: skip


def _rollout_parts(kind: str, payload: Mapping[str, Any]) -> list[str]:
    build = _ROLLOUT_PARTS.get(kind)
    return [] if build is None else build(_int(payload, "rollout"), _int(payload, "turn"), payload)


def fragments(message: Mapping[str, Any]) -> list[str]:
    """The oob fragments one event sends: its line in the event log, then whatever it changes on the page."""
    kind, payload, at = str(message["type"]), message.get("payload") or {}, message.get("at")
    line = LogLine(int(message["seq"]), kind, int(message.get("attempt") or 1))
    parts = [_append("run-events", part("log_line", line=line))]
    if kind in STATUS_OF:
        parts += _status_parts(kind, payload, at)
    return parts + _run_parts(kind, payload) + _rollout_parts(kind, payload)


def as_json(message: Message) -> str:
    return json.dumps(message, separators=(",", ":"))


def as_html(message: Message) -> str:
    return "".join(fragments(message))


FORMATS: dict[str, Callable[[Message], str]] = {"json": as_json, "html": as_html}
DEFAULT_FORMAT = "json"


def renderer(name: str | None) -> Callable[[Message], str]:
    """The named format's renderer (the default for an unknown or missing name)."""
    return FORMATS.get(name or DEFAULT_FORMAT, FORMATS[DEFAULT_FORMAT])
