"""A local cross-encoder (sentence-transformers ``CrossEncoder``) loaded from a local model folder."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from research.retrieval.rerankers import RerankerSettings


def factory(settings: RerankerSettings) -> CrossEncoderReranker:
    if settings.model_path is None:
        raise ValueError("the cross-encoder reranker needs a local model folder (RERANKER_MODEL_PATH)")
    return CrossEncoderReranker(settings.model_path)


class CrossEncoderReranker:
    def __init__(self, model_path: Path, *, batch_size: int = 32, device: str = "cpu") -> None:
        if not model_path.is_dir():
            raise FileNotFoundError(f"cross-encoder model folder {model_path} does not exist (nothing is downloaded)")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import CrossEncoder

        self._model: Any = CrossEncoder(str(model_path), device=device, local_files_only=True)
        self._path, self._batch_size = model_path, batch_size

    @property
    def name(self) -> str:
        return f"cross-encoder:{self._path.name}"

    def scores(self, query: str, texts: Sequence[str]) -> list[float] | None:
        if not texts:
            return []
        predictions = self._model.predict([(query, text) for text in texts], batch_size=self._batch_size)
        return [float(score) for score in predictions]
