"""Rerankers: score (query, chunk text) pairs; one module per implementation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


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
