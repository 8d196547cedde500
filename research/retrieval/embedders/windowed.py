"""What the local MiniLM embedders share: long texts embedded window by window.

The model reads at most ``max_seq_length`` word pieces (256 for MiniLM) and silently drops the rest. Longer
chunks are therefore embedded in consecutive windows that fit, and the window vectors are averaged and
re-normalised, so every word of a chunk reaches the dense index. A subclass says how it tokenises (``_offsets``)
and how it encodes a batch of texts into unit vectors (``_encode``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from research.retrieval.embedders import Vectors, normalise

DIMENSION = 384


class WindowedEmbedder:
    window: int = 254  # word pieces per window: the model's 256 less [CLS] and [SEP]

    def _offsets(self, text: str) -> list[tuple[int, int]]:
        """Each word piece's (start, end) characters in ``text``, no special tokens."""
        raise NotImplementedError

    def _encode(self, texts: list[str]) -> Vectors:
        """Unit vectors of ``texts``, each short enough for the model."""
        raise NotImplementedError

    def windows(self, text: str) -> list[str]:
        offsets = self._offsets(text)
        if len(offsets) <= self.window:
            return [text]
        return [
            text[offsets[i][0] : offsets[min(i + self.window, len(offsets)) - 1][1]]
            for i in range(0, len(offsets), self.window)
        ]

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        windows = [self.windows(text) for text in texts]
        flat = [window for group in windows for window in group]
        if not flat:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        encoded = self._encode(flat)
        rows, position = [], 0
        for group in windows:
            rows.append(encoded[position : position + len(group)].mean(axis=0))
            position += len(group)
        return normalise(np.stack(rows))

    def embed_query(self, text: str) -> Vectors:
        row: Vectors = self._encode([text])[0]
        return row

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self._encode(list(texts))
