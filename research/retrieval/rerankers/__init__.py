"""Rerankers: score (query, chunk text) pairs; their settings and registry here, one module per implementation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from research.protocol.registry import Registry


class RerankError(RuntimeError):
    pass


class Reranker(Protocol):
    @property
    def name(self) -> str: ...

    def scores(self, query: str, texts: Sequence[str]) -> list[float] | None:
        """A relevance score per text (higher is better), or None to keep the incoming order."""
        ...


class NoReranker:
    """Keeps the fusion order."""

    @property
    def name(self) -> str:
        return "none"

    def scores(self, query: str, texts: Sequence[str]) -> list[float] | None:
        return None


@dataclass(frozen=True)
class RerankerSettings:
    """What a reranker may need; each module's ``factory`` reads its own fields and refuses missing ones."""

    model_path: Path | None = None  # cross-encoder: a local model folder (nothing is downloaded)
    url: str | None = None  # http: the full URL of the /rerank endpoint
    model: str = ""  # http: the served model's name


RerankerFactory = Callable[[RerankerSettings], Reranker]


def factory(settings: RerankerSettings) -> NoReranker:
    """The ``none`` entry: the fusion order is kept."""
    return NoReranker()


# Adding a reranker: a module with the reranker and ``factory(settings) -> Reranker``, and a line here.
RERANKERS: Registry[RerankerFactory] = Registry(
    "reranker",
    {
        "none": "research.retrieval.rerankers:factory",
        "cross-encoder": "research.retrieval.rerankers.cross_encoder:factory",
        "http": "research.retrieval.rerankers.http:factory",
    },
)


def reranker_for(name: str, settings: RerankerSettings) -> Reranker:
    """The reranker registered as ``name``; ValueError for an unknown name or a missing setting."""
    return RERANKERS.load(name)(settings)
