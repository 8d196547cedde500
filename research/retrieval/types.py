"""Value types shared by the retrieval package: chunks, scored chunks and search results."""

from __future__ import annotations

from dataclasses import dataclass, field


def chunk_id_for(doc_id: str, index: int) -> str:
    """Stable chunk id: ``<doc_id>#<index>``."""
    return f"{doc_id}#{index}"


def doc_id_of(chunk_id: str) -> str:
    doc_id, sep, index = chunk_id.rpartition("#")
    if not sep or not doc_id or not index.isdigit():
        raise ValueError(f"not a chunk id: {chunk_id!r}")
    return doc_id


@dataclass(frozen=True)
class Chunk:
    """A retrievable piece of a document."""

    chunk_id: str
    doc_id: str
    index: int
    text: str
    title: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    # The rendered body's token count, stored at indexing so packing need not tokenise it per search,
    # and the name of the counter that produced it (a different counter ignores it).
    body_tokens: int | None = None
    body_counter: str = ""
    frame_tokens: int | None = None  # the element around the body, less its score's tokens


@dataclass(frozen=True)
class ScoredChunk:
    """A chunk with the score that ranked it (fused, reranked or regex match) and its per-retriever ranks."""

    chunk: Chunk
    score: float
    ranks: dict[str, int] = field(default_factory=dict)

    @property
    def chunk_id(self) -> str:
        return self.chunk.chunk_id


@dataclass(frozen=True)
class ToolResult:
    """What a corpus tool returns: the chunks that fit the token budget, and what did not."""

    chunks: list[ScoredChunk]
    tokens: int
    omitted: int = 0
    truncated: bool = False
    note: str = ""
