"""The sparse index of one corpus: BM25 (Robertson and Zaragoza, 2009) over chunk texts with ``bm25s``.

bm25s builds a static sparse matrix, so the index is rebuilt from the corpus's chunks after each
change (``rebuild``), written to a fresh version folder and switched to atomically through the
``CURRENT`` file; readers reload when ``CURRENT`` names a newer version.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import Stemmer

_STEMMER = Stemmer.Stemmer("english")


def tokenize(texts: list[str]) -> list[list[str]]:
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=_STEMMER.stemWords, return_ids=False, show_progress=False)
    return [list(t) for t in tokens]


class SparseIndex:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._version: str | None = None
        self._retriever: Any = None
        self._ids: list[str] = []

    def _current(self) -> str | None:
        pointer = self.directory / "CURRENT"
        return pointer.read_text().strip() if pointer.exists() else None

    def rebuild(self, chunks: Iterable[tuple[str, str]]) -> int:
        """Index every (chunk id, text); returns the number indexed. Safe against concurrent readers."""
        ids, texts = [], []
        for chunk_id, text in chunks:
            ids.append(chunk_id)
            texts.append(text)
        version = f"v-{uuid.uuid4().hex[:12]}"
        target = self.directory / version
        target.mkdir(parents=True)
        if ids:
            retriever = bm25s.BM25()
            retriever.index(tokenize(texts), show_progress=False)
            retriever.save(str(target), show_progress=False)
        (target / "ids.json").write_text(json.dumps(ids))
        previous = self._current()
        temporary = self.directory / f"CURRENT.{version}"
        temporary.write_text(version)
        os.replace(temporary, self.directory / "CURRENT")
        if previous and previous != version:
            shutil.rmtree(self.directory / previous, ignore_errors=True)
        return len(ids)

    def _load(self) -> None:
        version = self._current()
        if version == self._version:
            return
        if version is None:
            self._version, self._retriever, self._ids = None, None, []
            return
        folder = self.directory / version
        ids = json.loads((folder / "ids.json").read_text())
        retriever = bm25s.BM25.load(str(folder), mmap=False) if ids else None
        self._version, self._retriever, self._ids = version, retriever, ids

    def count(self) -> int:
        with self._lock:
            self._load()
            return len(self._ids)

    def query(self, text: str, *, n: int, exclude: frozenset[str]) -> list[tuple[str, float]]:
        """The ``n`` best (chunk id, BM25 score) pairs with a positive score, not in ``exclude``."""
        with self._lock:
            self._load()
            retriever, ids = self._retriever, self._ids
        query_tokens = tokenize([text])
        if retriever is None or not query_tokens[0] or n <= 0:
            return []
        k = min(len(ids), n + len(exclude))
        documents, scores = retriever.retrieve(query_tokens, k=k, show_progress=False, n_threads=0)
        hits = [
            (ids[int(index)], float(score))
            for index, score in zip(np.asarray(documents)[0], np.asarray(scores)[0], strict=True)
            if score > 0 and ids[int(index)] not in exclude
        ]
        return hits[:n]
