"""Packing ranked chunks into a token budget, whole chunks only (a cut is always marked)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from research.protocol import wire
from research.retrieval.tokens import TokenCounter
from research.retrieval.types import ScoredChunk, ToolResult


@dataclass(frozen=True)
class Packed:
    result: ToolResult
    rendered: list[str]


def to_wire(item: ScoredChunk, *, truncated: bool = False) -> wire.WireChunk:
    chunk = item.chunk
    return wire.WireChunk(chunk.chunk_id, chunk.doc_id, chunk.title, item.score, chunk.text, truncated)


def costs(items: Sequence[ScoredChunk], counter: TokenCounter) -> list[int]:
    """Each chunk's rendered token count. Chunks indexed by this counter carry their body's and their frame's
    counts (the element without its text, less the score), so only the score is counted, from a cache;
    others are counted whole. Exact because counts add up at whitespace and punctuation (the text sits
    between newlines, the score between quotes): tested for both counters over arbitrary text."""
    result = []
    fresh: list[int] = []
    for i, item in enumerate(items):
        chunk = item.chunk
        if chunk.body_counter == counter.name and chunk.body_tokens is not None and chunk.frame_tokens is not None:
            result.append(chunk.body_tokens + chunk.frame_tokens + _score_tokens(counter, wire.score_text(item.score)))
        else:
            result.append(0)
            fresh.append(i)
    rendered = [wire.render(to_wire(items[i])) for i in fresh]
    for i, n in zip(fresh, counter.count_many(rendered), strict=True):
        result[i] = n
    return result


def frame_counts(items: Sequence[ScoredChunk], counter: TokenCounter) -> list[int]:
    """Each chunk's frame count: its element with an empty body, less the tokens of its score."""
    frames = counter.count_many([wire.render(replace(to_wire(item), text="")) for item in items])
    return [n - _score_tokens(counter, wire.score_text(item.score)) for item, n in zip(items, frames, strict=True)]


_SCORE_TOKENS: dict[tuple[str, str], int] = {}  # (counter name, score text) -> tokens; scores repeat a lot


def _score_tokens(counter: TokenCounter, score: str) -> int:
    key = (counter.name, score)
    if key not in _SCORE_TOKENS:
        if len(_SCORE_TOKENS) >= 65_536:
            _SCORE_TOKENS.clear()
        _SCORE_TOKENS[key] = counter.count(score)
    return _SCORE_TOKENS[key]


def pack(ranked: Sequence[ScoredChunk], *, budget: int, counter: TokenCounter, limit: int | None = None) -> Packed:
    """Take chunks in rank order while their rendered form fits ``budget`` tokens; skip (and count) the rest.

    A chunk that does not fit is skipped rather than cut, and a smaller one further down may still
    fit; ``omitted`` says how many were left out. At most ``limit`` chunks are returned.
    """
    kept: list[ScoredChunk] = []
    kept_text: list[str] = []
    used = 0
    window = max(1, limit or len(ranked))
    for start in range(0, len(ranked), window):  # count in small batches: most calls stop at the limit
        if (limit is not None and len(kept) >= limit) or used >= budget:
            break
        batch = ranked[start : start + window]
        for item, cost in zip(batch, costs(batch, counter), strict=True):
            if limit is not None and len(kept) >= limit:
                break
            if used + cost <= budget:
                kept.append(item)
                kept_text.append(wire.render(to_wire(item)))
                used += cost
    return Packed(ToolResult(chunks=kept, tokens=used, omitted=len(ranked) - len(kept)), kept_text)


def pack_truncating(ordered: Sequence[ScoredChunk], *, budget: int, counter: TokenCounter) -> Packed:
    """Take chunks in order until the budget is spent; the last one may be cut, and is then marked."""
    kept: list[ScoredChunk] = []
    kept_text: list[str] = []
    used = 0
    for position, item in enumerate(ordered):
        text = wire.render(to_wire(item))
        cost = counter.count(text)
        if used + cost <= budget:
            kept.append(item)
            kept_text.append(text)
            used += cost
            continue
        cut = _cut_to_fit(item, budget - used, counter)
        if cut is not None:
            kept.append(cut)
            kept_text.append(wire.render(to_wire(cut, truncated=True)))
            used += counter.count(kept_text[-1])
        omitted = len(ordered) - position - (1 if cut is not None else 0)
        return Packed(ToolResult(chunks=kept, tokens=used, omitted=omitted, truncated=True), kept_text)
    return Packed(ToolResult(chunks=kept, tokens=used), kept_text)


def _cut_to_fit(item: ScoredChunk, room: int, counter: TokenCounter) -> ScoredChunk | None:
    """The longest word-boundary prefix of the chunk whose marked, rendered form fits ``room`` tokens."""
    words = item.chunk.text.split(" ")
    low, high, best = 1, len(words) - 1, None
    while low <= high:
        middle = (low + high) // 2
        text = " ".join(words[:middle]) + "\n" + wire.TRUNCATION_MARKER
        candidate = replace(item, chunk=replace(item.chunk, text=text))
        if counter.count(wire.render(to_wire(candidate, truncated=True))) <= room:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best
