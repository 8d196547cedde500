"""Token-aware chunking that keeps paragraphs and sentences whole where they fit.

The text is cut into units (sentences inside paragraphs; a unit longer than the limit is cut at
word boundaries, and a single over-long word at characters). Units are packed greedily into chunks
of at most ``max_tokens``; a chunk also ends at a paragraph break once it is at least half full,
so chunks tend to start where the author started a thought. Chunks are spans of the original text:
in order, without overlap, covering every non-blank character.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from research.retrieval.tokens import TokenCounter

_PARAGRAPH = re.compile(r"\S(?:.*?\S)?(?=\n\s*\n|\s*\Z)", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class ChunkSpan:
    index: int
    start: int
    end: int
    text: str
    tokens: int


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    tokens: int
    opens_paragraph: bool


def _sentence_spans(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    position = start
    for match in _SENTENCE_END.finditer(text, start, end):
        yield position, match.start() + len(match.group(0).rstrip())
        position = match.end()
    if position < end:
        yield position, end


def _split_long(text: str, start: int, end: int, max_tokens: int, counter: TokenCounter) -> Iterator[tuple[int, int]]:
    """Cut an over-long span at word boundaries (and an over-long word at characters)."""
    words = [(start + m.start(), start + m.end()) for m in _WORD.finditer(text[start:end])]
    counts = counter.count_many([text[a:b] for a, b in words])
    piece_start: int | None = None
    piece_tokens, previous_end = 0, start
    for (a, b), tokens in zip(words, counts, strict=True):
        if tokens > max_tokens:
            if piece_start is not None:
                yield piece_start, previous_end
                piece_start, piece_tokens = None, 0
            yield from _split_chars(text, a, b, max_tokens, counter)
            continue
        if piece_start is not None and piece_tokens + tokens > max_tokens:
            yield piece_start, previous_end
            piece_start, piece_tokens = None, 0
        if piece_start is None:
            piece_start = a
        piece_tokens += tokens
        previous_end = b
    if piece_start is not None:
        yield piece_start, previous_end


def _split_chars(text: str, start: int, end: int, max_tokens: int, counter: TokenCounter) -> Iterator[tuple[int, int]]:
    step = max(1, (end - start) * max_tokens // max(1, counter.count(text[start:end])))
    while start < end:
        stop = min(end, start + step)
        while stop - start > 1 and counter.count(text[start:stop]) > max_tokens:
            stop = start + (stop - start) // 2
        yield start, stop
        start = stop


def _units(text: str, max_tokens: int, counter: TokenCounter) -> list[_Unit]:
    spans: list[tuple[int, int, bool]] = []
    for paragraph in _PARAGRAPH.finditer(text):
        for index, (a, b) in enumerate(_sentence_spans(text, paragraph.start(), paragraph.end())):
            spans.append((a, b, index == 0))
    counts = counter.count_many([text[a:b] for a, b, _ in spans])
    units: list[_Unit] = []
    for (a, b, opens), tokens in zip(spans, counts, strict=True):
        if tokens <= max_tokens:
            units.append(_Unit(a, b, tokens, opens))
            continue
        pieces = list(_split_long(text, a, b, max_tokens, counter))
        piece_counts = counter.count_many([text[x:y] for x, y in pieces])
        units.extend(
            _Unit(x, y, n, opens and i == 0) for i, ((x, y), n) in enumerate(zip(pieces, piece_counts, strict=True))
        )
    return units


def chunk_text(text: str, *, max_tokens: int, counter: TokenCounter) -> list[ChunkSpan]:
    if max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    chunks: list[ChunkSpan] = []
    current: list[_Unit] = []
    total = 0

    def flush() -> None:
        nonlocal current, total
        if current:
            start, end = current[0].start, current[-1].end
            chunks.append(ChunkSpan(index=len(chunks), start=start, end=end, text=text[start:end], tokens=total))
        current, total = [], 0

    for unit in _units(text, max_tokens, counter):
        overflow = total + unit.tokens > max_tokens
        paragraph_break = unit.opens_paragraph and total >= max_tokens // 2
        if current and (overflow or paragraph_break):
            flush()
        current.append(unit)
        total += unit.tokens
    flush()
    return chunks
