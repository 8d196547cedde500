"""Embedders: the Embedder interface and its implementations (one module each)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

Vectors = NDArray[np.float32]


class EmbeddingError(RuntimeError):
    """A permanent failure (bad request, wrong model): retrying will not help."""


class EmbeddingUnavailable(EmbeddingError):
    """A transient failure (connection refused, timeout, 5xx): worth retrying later."""


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (rows)."""

    @property
    def name(self) -> str: ...

    def embed_documents(self, texts: Sequence[str]) -> Vectors: ...

    def embed_query(self, text: str) -> Vectors: ...


def normalise(vectors: Vectors) -> Vectors:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    result: Vectors = (vectors / norms).astype(np.float32)
    return result
