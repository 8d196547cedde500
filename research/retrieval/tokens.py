"""Token counting for chunking and packing: the embedding model's word-piece tokenizer, or an estimate."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

_WORDS = re.compile(r"\w+|[^\w\s]")


class TokenCounter(Protocol):
    """Counts must add up across whitespace: ``count(a + "\n" + b) == count(a) + count(b)``, so a chunk's
    stored body count plus its wire header's count is its rendered count (packing relies on this)."""

    @property
    def name(self) -> str: ...

    def count(self, text: str) -> int: ...

    def count_many(self, texts: Sequence[str]) -> list[int]: ...


class EstimatingCounter:
    """No tokenizer needed: one token per punctuation mark, about one per 6 characters of a word."""

    name = "estimate"

    def count(self, text: str) -> int:
        return sum(1 + (len(piece) - 1) // 6 for piece in _WORDS.findall(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        return [self.count(text) for text in texts]


class WordPieceCounter:
    """Exact counts with a Hugging Face ``tokenizer.json`` (Rust ``tokenizers``), no special tokens."""

    def __init__(self, tokenizer_file: Path) -> None:
        from tokenizers import Tokenizer

        self.name = f"wordpiece:{tokenizer_file.parent.name}"
        self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        encodings = self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [len(encoding.ids) for encoding in encodings]


def packaged_counter() -> TokenCounter:
    """The packaged MiniLM's word-piece tokenizer when it is installed, else the estimate."""
    try:
        from research.retrieval.embedders.sentence_transformer import packaged_minilm_path

        tokenizer_file = packaged_minilm_path() / "tokenizer.json"
    except ImportError:
        return EstimatingCounter()
    return WordPieceCounter(tokenizer_file) if tokenizer_file.is_file() else EstimatingCounter()
