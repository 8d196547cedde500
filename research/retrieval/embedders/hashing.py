"""A deterministic hashing embedder (word and word-pair feature hashing): no model, for tests and benchmarks."""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence

import numpy as np

from research.retrieval.embedders import EmbedderSettings, Vectors, normalise

_WORD = re.compile(r"\w+")


def factory(settings: EmbedderSettings) -> HashingEmbedder:
    return HashingEmbedder(dimension=settings.dimension)


class HashingEmbedder:
    """Texts sharing words get similar vectors; unrelated texts are near-orthogonal."""

    def __init__(self, dimension: int = 256) -> None:
        self.dimension = dimension

    @property
    def name(self) -> str:
        return f"hashing-{self.dimension}"

    def _features(self, text: str) -> list[str]:
        words = [word.lower() for word in _WORD.findall(text)]
        return words + [f"{a} {b}" for a, b in itertools.pairwise(words)]

    def _vector(self, text: str) -> Vectors:
        vector = np.zeros(self.dimension, dtype=np.float32)
        for feature in self._features(text):
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            vector[value % self.dimension] += 1.0 if (value >> 63) & 1 else -1.0
        return vector

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return normalise(np.stack([self._vector(text) for text in texts]))

    def embed_query(self, text: str) -> Vectors:
        row: Vectors = self.embed_documents([text])[0]
        return row

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self.embed_documents(texts)
