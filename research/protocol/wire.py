"""The chunk wire format: how a chunk appears in a tool result, shared by the tools and by pruning.

A chunk is rendered as one element whose attributes and text are HTML-escaped, so any text
round-trips exactly::

    <chunk id="d41d8cd98f00b204#3" doc="d41d8cd98f00b204" title="Globex pricing" score="0.0323">
    Globex raised the Team plan to $49 per seat in June 2026 ...
    </chunk>

A pruned chunk keeps its place as a stub: ``<chunk id="..." pruned="true"/>``. A chunk cut to fit
the budget carries ``truncated="true"`` and ends with the marker line ``[... truncated]``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

TRUNCATION_MARKER = "[... truncated]"

_ELEMENT = re.compile(r'<chunk((?: [a-z]+="[^"]*")*)>\n(.*?)\n</chunk>', re.DOTALL)
_STUB = re.compile(r'<chunk id="([^"]*)" pruned="true"/>')
_ATTRIBUTE = re.compile(r' ([a-z]+)="([^"]*)"')


@dataclass(frozen=True)
class WireChunk:
    chunk_id: str
    doc_id: str
    title: str
    score: float
    text: str
    truncated: bool = False


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def body(text: str) -> str:
    """A chunk's text as it appears inside the element (escaped)."""
    return html.escape(text, quote=False)


def score_text(score: float) -> str:
    return f"{score:.4f}"


def render(chunk: WireChunk) -> str:
    """The element; its text sits between two newlines, so ``render(c)`` is ``render(c with text "")`` with
    ``body(c.text)`` inserted at a whitespace boundary (what lets packing add stored body counts)."""
    truncated = ' truncated="true"' if chunk.truncated else ""
    return (
        f'<chunk id="{_attr(chunk.chunk_id)}" doc="{_attr(chunk.doc_id)}" title="{_attr(chunk.title)}" '
        f'score="{score_text(chunk.score)}"{truncated}>\n{body(chunk.text)}\n</chunk>'
    )


_REPEAT = re.compile(r"(\S+) \(rank (\d+)\)")
REPEATS_PREFIX = "Also returned, shown above:"


def render_repeats(repeats: list[tuple[int, str]]) -> str:
    """Chunks a result also held that were already shown: ``Also returned, shown above: a#0 (rank 1), ...``."""
    return REPEATS_PREFIX + " " + ", ".join(f"{chunk_id} (rank {rank})" for rank, chunk_id in repeats) + "."


def parse_repeats(text: str) -> list[tuple[int, str]]:
    """(rank, chunk id) of every chunk named by :func:`render_repeats` in ``text``."""
    line = next((line for line in text.splitlines() if REPEATS_PREFIX in line), "")
    tail = line.split(REPEATS_PREFIX, 1)[1] if line else ""
    return [(int(rank), chunk_id.rstrip(",")) for chunk_id, rank in _REPEAT.findall(tail)]


def render_stub(chunk_id: str) -> str:
    return f'<chunk id="{_attr(chunk_id)}" pruned="true"/>'


def parse(text: str) -> list[WireChunk]:
    """Every rendered chunk in ``text``, in order (stubs are skipped; see :func:`parse_stubs`)."""
    chunks = []
    for match in _ELEMENT.finditer(text):
        attributes = {name: html.unescape(value) for name, value in _ATTRIBUTE.findall(match.group(1))}
        chunks.append(
            WireChunk(
                chunk_id=attributes["id"],
                doc_id=attributes["doc"],
                title=attributes.get("title", ""),
                score=float(attributes.get("score", "0")),
                text=html.unescape(match.group(2)),
                truncated=attributes.get("truncated") == "true",
            )
        )
    return chunks


def parse_stubs(text: str) -> list[str]:
    return [html.unescape(chunk_id) for chunk_id in _STUB.findall(text)]


# Web search results: one element each, escaped like chunks (a result's text is untrusted), no chunk id: a result
# is not evidence until its page is fetched.
_RESULT = re.compile(r'<result url="([^"]*)" title="([^"]*)"(?: date="([^"]*)")?>\n(.*?)\n</result>', re.DOTALL)


@dataclass(frozen=True)
class WireResult:
    url: str
    title: str
    snippet: str
    date: str | None = None


def render_result(result: WireResult) -> str:
    date = f' date="{_attr(result.date)}"' if result.date else ""
    return f'<result url="{_attr(result.url)}" title="{_attr(result.title)}"{date}>\n{body(result.snippet)}\n</result>'


def parse_results(text: str) -> list[WireResult]:
    """Every result element of ``text``, unescaped."""
    return [
        WireResult(
            html.unescape(url), html.unescape(title), html.unescape(snippet), html.unescape(date) if date else None
        )
        for url, title, date, snippet in _RESULT.findall(text)
    ]
