"""An ONNX sentence model and its tokenizer: texts in, unit vectors out (``onnx_runtime`` embeds with it,
``onnx_export`` checks a fresh export with it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from research.retrieval.embedders import Vectors

MAX_TOKENS = 256  # what MiniLM reads, [CLS] and [SEP] included (sentence-transformers' max_seq_length)
BATCH = 4  # texts per run: ~equal lengths pad little (measured here: 4 to 8 best, 32 a third slower)


class OnnxEncoder:
    """An ONNX sentence model and its tokenizer: texts in, unit vectors out."""

    def __init__(self, model_file: Path, tokenizer_file: Path, *, max_tokens: int = MAX_TOKENS) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3  # errors only
        self._session = onnxruntime.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])
        self._tokenizer: Any = Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer.enable_padding()
        self.plain: Any = Tokenizer.from_file(str(tokenizer_file))  # no truncation, no padding: for offsets
        self.plain.no_truncation()
        self.plain.no_padding()

    def encode(self, texts: list[str], *, batch: int = BATCH) -> Vectors:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        rows: list[Vectors] = [np.zeros(0, dtype=np.float32)] * len(texts)
        for start in range(0, len(order), batch):
            picked = order[start : start + batch]
            encodings = self._tokenizer.encode_batch([texts[i] for i in picked])
            feed = {
                "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
            }
            for index, vector in zip(picked, self._session.run(None, feed)[0], strict=True):
                rows[index] = np.asarray(vector, dtype=np.float32)
        return np.stack(rows) if rows else np.zeros((0, 384), dtype=np.float32)
