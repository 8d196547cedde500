"""A timeline as Markdown and as CSV: its events, then each plan's prices, every line with its date, where the
date comes from, the run it was first seen in and its sources."""

from __future__ import annotations

import csv
import io

from research.reporting.exports import md_escape
from research.writing.timeline import Event, PricePoint, Timeline, When, sources

DATED_FROM = {"text": "its words", "quote": "its quote", "source": "its source's date", "run": "the run's day"}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a cell a spreadsheet would run as a formula


def _date(when: When | None) -> str:
    return when.label if when else "undated"


def _quotes(event: Event | PricePoint) -> list[str]:
    return [f"  - “{md_escape(c.quote)}” ({md_escape(c.source or c.doc_id)})" for c in event.citations]


def timeline_markdown(timeline: Timeline, *, heading: str) -> str:
    """Every text from a document or a user escaped (``md_escape``): it cannot make a link, an image or HTML."""
    lines = [
        f"# {md_escape(heading)}",
        "",
        f"Read from {len(timeline.runs)} finished run(s): {_runs(timeline.runs)}.",
        "",
    ]
    lines += ["## Events (newest first)", ""]
    for event in timeline.events:
        dated = f" (date from {DATED_FROM[event.when.dated_from]})" if event.when else ""
        lines.append(f"- **{_date(event.when)}** · {event.kind_label}{dated}: {md_escape(event.text)}")
        lines.append(f"  first seen in run {event.first_run} on {event.first_seen.isoformat()}")
        lines += _quotes(event)
    if not timeline.events:
        lines.append("No dated events in these runs' reports.")
    lines += ["", "## Prices (oldest first)", ""]
    for history in timeline.plans:
        lines += [f"### {md_escape(history.plan)}" + (" (changed)" if history.changed else ""), ""]
        for point in history.points:
            dated = DATED_FROM[point.when.dated_from]
            lines.append(
                f"- **{md_escape(point.price)}** · {_date(point.when)} (date from {dated}), "
                f"first seen in run {point.first_run} on {point.first_seen.isoformat()}: {md_escape(point.text)}"
            )
            lines += _quotes(point)
        lines.append("")
    if not timeline.plans:
        lines.append("No plan prices in these runs' reports.")
    return "\n".join(lines).rstrip() + "\n"


def _runs(runs: tuple[int, ...]) -> str:
    return ", ".join(f"run {run}" for run in runs) or "none"


def _cell(value: object) -> str:
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_START) else text


HEADER = ["type", "date", "date_from", "kind_or_plan", "price", "text", "first_seen_run", "first_seen_on", "runs"]


def timeline_csv(timeline: Timeline) -> str:
    """One line per event, then one per plan price; ``date`` as ISO (a day, a month or a year)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([*HEADER, "sources", "quotes"])
    for event in timeline.events:
        when = event.when
        row = ["event", when.iso if when else "", when.dated_from if when else "", event.kind_label, ""]
        writer.writerow([_cell(v) for v in [*row, event.text, *_seen(event), *_cited(event)]])
    for history in timeline.plans:
        for point in history.points:
            row = ["price", point.when.iso, point.when.dated_from, history.plan, point.price]
            writer.writerow([_cell(v) for v in [*row, point.text, *_seen(point), *_cited(point)]])
    return buffer.getvalue()


def _seen(item: Event | PricePoint) -> list[str]:
    return [str(item.first_run), item.first_seen.isoformat(), " ".join(str(run) for run in item.runs)]


def _cited(item: Event | PricePoint) -> list[str]:
    return [sources(item.citations), " | ".join(c.quote for c in item.citations)]
