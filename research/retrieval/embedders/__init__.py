"""Embedders: the Embedder interface, its settings and its registry; the implementations are one module each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from research.protocol.registry import Registry

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

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Several queries at once, each row as ``embed_query`` would give it (one call: cheaper per query)."""
        ...


def normalise(vectors: Vectors) -> Vectors:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    result: Vectors = (vectors / norms).astype(np.float32)
    return result


@dataclass(frozen=True)
class EmbedderSettings:
    """What an embedder may need; each module's ``factory`` reads its own fields and refuses missing ones."""

    model_path: Path | None = None  # minilm(-torch): a local sentence-transformers folder (None: the packaged MiniLM)
    url: str | None = None  # openai: the server's root
    model: str = ""  # openai: the served model's name
    dimension: int = 256  # hashing: the vectors' width
    cache_dir: Path | None = None  # minilm: where its ONNX form is built once (None: the system temp folder)


EmbedderFactory = Callable[[EmbedderSettings], Embedder]

# Adding an embedder: a module with the embedder and ``factory(settings) -> Embedder``, and a line here.
EMBEDDERS: Registry[EmbedderFactory] = Registry(
    "embedder",
    {
        "minilm": "research.retrieval.embedders.onnx_runtime:factory",
        "minilm-torch": "research.retrieval.embedders.sentence_transformer:factory",
        "openai": "research.retrieval.embedders.openai_http:factory",
        "hashing": "research.retrieval.embedders.hashing:factory",
    },
)


def embedder_for(name: str, settings: EmbedderSettings) -> Embedder:
    """The embedder registered as ``name``; ValueError for an unknown name or a missing setting."""
    return EMBEDDERS.load(name)(settings)
