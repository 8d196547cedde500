"""The product's ``minilm`` embedder: the packaged all-MiniLM-L6-v2 run by ONNX Runtime.

Same model, same vectors as the torch path (``minilm-torch``; the export is checked against it, see
``onnx_export.py``), without torch's per-call overhead: a short query embeds in a few milliseconds instead of
tens. The graph is exported on the first start from the packaged weights and cached under
``DATA_DIR/models``; later starts load the file and never import torch. Texts of a batch are encoded shortest
first, so a batch pads to lengths alike.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from research.retrieval.embedders import Embedder, EmbedderSettings, Vectors
from research.retrieval.embedders.onnx_encoder import MAX_TOKENS, OnnxEncoder
from research.retrieval.embedders.onnx_export import onnx_model
from research.retrieval.embedders.windowed import WindowedEmbedder

log = logging.getLogger(__name__)


def default_cache() -> Path:
    """Where the export goes when no DATA_DIR is given (commands outside the product): the system temp folder."""
    return Path(tempfile.gettempdir()) / "context1-web-models"


def factory(settings: EmbedderSettings) -> Embedder:
    """The ONNX embedder; if its export cannot be built here (a missing package, a refused check, a full disk),
    the same model on torch, said once in the log: slower queries, the same vectors."""
    from research.retrieval.embedders.sentence_transformer import SentenceTransformerEmbedder, packaged_minilm_path

    model_path = settings.model_path or packaged_minilm_path()
    try:
        return OnnxEmbedder(model_path, settings.cache_dir or default_cache())
    except (ImportError, RuntimeError, OSError):
        log.exception("MiniLM runs on torch instead: its ONNX form could not be built")
        return SentenceTransformerEmbedder(model_path)


class OnnxEmbedder(WindowedEmbedder):
    def __init__(self, model_path: Path, cache_dir: Path) -> None:
        self.model_path = model_path
        self.model_file = onnx_model(model_path, cache_dir)
        self._encoder = OnnxEncoder(self.model_file, model_path / "tokenizer.json")
        self.window = MAX_TOKENS - 2

    @property
    def name(self) -> str:
        # the vectors are the sentence-transformers model's: indexes built by either path stay searchable
        return f"sentence-transformers:{self.model_path.name}"

    def _offsets(self, text: str) -> list[tuple[int, int]]:
        return list(self._encoder.plain.encode(text, add_special_tokens=False).offsets)

    def _encode(self, texts: list[str]) -> Vectors:
        return self._encoder.encode(texts)
