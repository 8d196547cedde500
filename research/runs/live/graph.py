"""The search graph of a run, laid out for server-rendered SVG: question -> sub-queries per rollout -> documents.

The layout is deterministic (three columns; rows in event order, documents in fused-ranking order), so
the same events always draw the same picture, and re-rendering it after new events is cheap.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from research.protocol.events import CORPUS_TOOLS
from research.runs.live.state import CallView, RunState
from research.runs.live.summary import TOOL_LABELS

WIDTH = 960
ROW = 24
TOP = 34
GROUP_GAP = 18
QUERY_X, QUERY_W = 250, 330
DOC_X, DOC_W = 650, 300
QUESTION_W = 190
QUESTION_LINES = 6  # a longer question ends its last line with "…"; the box's tooltip holds it whole
MAX_QUERIES, MAX_DOCS = 64, 40


@dataclass(frozen=True)
class Node:
    key: str
    x: int
    y: int
    label: str
    title: str  # the full text (an SVG <title>, read by screen readers and shown on hover)
    rollout: int = -1
    returned: int = 0


@dataclass(frozen=True)
class Edge:
    path: str
    rollout: int


@dataclass(frozen=True)
class Graph:
    width: int
    height: int
    question_lines: list[tuple[int, str]]  # (y, text)
    question_y: int  # where its edges start
    question_box: tuple[int, int]  # (top, height)
    groups: list[tuple[int, int]]  # (rollout, y of its label)
    queries: list[Node]
    documents: list[Node]
    edges: list[Edge]
    hidden_queries: int
    hidden_documents: int
    question: str = ""  # whole, for the question box's tooltip

    @property
    def empty(self) -> bool:
        return not self.queries


def _clip(text: str, size: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 1] + "…"


def _curve(x1: int, y1: int, x2: int, y2: int) -> str:
    middle = (x1 + x2) // 2
    return f"M{x1},{y1} C{middle},{y1} {middle},{y2} {x2},{y2}"


def _document_order(state: RunState) -> list[tuple[str, str, int]]:
    """(doc_id, title, agreement): the fused ranking first, then documents in the order they were found."""
    ranked = state.final if state.final is not None else state.ranking
    order: dict[str, tuple[str, str, int]] = {
        doc.doc_id: (doc.doc_id, doc.title or doc.doc_id, doc.agreement) for doc in ranked
    }
    for call in state.calls():
        for chunk in call.chunks:
            order.setdefault(chunk.doc_id, (chunk.doc_id, chunk.title or chunk.doc_id, 0))
    return list(order.values())


def run_graph(state: RunState) -> Graph:
    calls = [call for call in state.calls() if call.tool in CORPUS_TOOLS]
    shown, y = calls[:MAX_QUERIES], TOP
    groups: list[tuple[int, int]] = []
    queries: list[Node] = []
    for call in shown:
        if not groups or groups[-1][0] != call.rollout:
            y += GROUP_GAP if groups else 0
            groups.append((call.rollout, y))
            y += ROW
        label = f"{TOOL_LABELS[call.tool]}: {_clip(call.query, 36)}"
        queries.append(
            Node(f"q-{call.rollout}-{call.call_id}", QUERY_X, y, label, call.query, call.rollout, len(call.chunks))
        )
        y += ROW
    all_documents = _document_order(state)
    documents = [
        Node(f"d-{doc_id}", DOC_X, TOP + ROW * (index + 1), _clip(title, 34), f"{title} ({doc_id})", returned=agreement)
        for index, (doc_id, title, agreement) in enumerate(all_documents[:MAX_DOCS])
    ]
    height = max(y, TOP + ROW * (len(documents) + 1)) + ROW
    lines = textwrap.wrap(state.question, 23, max_lines=QUESTION_LINES, placeholder=" \u2026") or ["(question)"]
    middle = (queries[0].y + queries[-1].y) // 2 if queries else TOP + ROW
    top = max(TOP, middle - len(lines) * 9 - 8)
    box = (top, len(lines) * 18 + 14)
    question_y = top + box[1] // 2
    placed = [(top + 22 + 18 * index, line) for index, line in enumerate(lines)]
    return Graph(
        WIDTH,
        height,
        placed,
        question_y,
        box,
        groups,
        queries,
        documents,
        _edges(shown, queries, documents, question_y),
        len(calls) - len(shown),
        len(all_documents) - len(documents),
        state.question,
    )


def _edges(calls: list[CallView], queries: list[Node], documents: list[Node], question_y: int) -> list[Edge]:
    where = {node.key[2:]: node for node in documents}
    edges: list[Edge] = []
    for call, node in zip(calls, queries, strict=True):
        edges.append(Edge(_curve(QUESTION_W + 10, question_y, node.x - 6, node.y - 4), call.rollout))
        for doc_id in dict.fromkeys(chunk.doc_id for chunk in call.chunks):
            target = where.get(doc_id)
            if target is not None:
                edges.append(Edge(_curve(node.x + QUERY_W, node.y - 4, target.x - 6, target.y - 4), call.rollout))
    return edges
