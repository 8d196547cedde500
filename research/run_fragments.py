"""How a stored run event is sent over the run socket: JSON for programs, HTML fragments for the page.

The socket calls ``render(format, message)`` for every event; a format is a function from the event
message (``StoredEvent.message()``: seq, type, payload, attempt, at) to the text of one WebSocket
frame. ``html`` renders the same partial templates the page renders on a plain reload, so htmx's
ws extension can swap them in by their ``hx-swap-oob`` targets.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.template.loader import render_to_string

Message = dict[str, Any]


def as_json(message: Message) -> str:
    return json.dumps(message, separators=(",", ":"))


def as_html(message: Message) -> str:
    return render_to_string("research/partials/run_event.html", {"event": message})


FORMATS: dict[str, Callable[[Message], str]] = {"json": as_json, "html": as_html}
DEFAULT_FORMAT = "json"


def renderer(name: str | None) -> Callable[[Message], str]:
    """The named format's renderer (the default for an unknown or missing name)."""
    return FORMATS.get(name or DEFAULT_FORMAT, FORMATS[DEFAULT_FORMAT])
