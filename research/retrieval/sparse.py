"""The sparse index of one corpus: BM25 (Robertson and Zaragoza, 2009) over chunk texts with ``bm25s``.

bm25s builds a static sparse matrix, so the index is rebuilt from the corpus's chunks after each
change (``rebuild``), written to a fresh version folder and switched to atomically through the
``CURRENT`` file; readers reload when ``CURRENT`` names a newer version. Each version also keeps its
chunks' token counts (``lengths.npy``), so several corpora can be scored with shared statistics
(``shared_bm25``).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import Stemmer

_STEMMER = Stemmer.Stemmer("english")


def tokenize(texts: list[str]) -> list[list[str]]:
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=_STEMMER.stemWords, return_ids=False, show_progress=False)
    return [list(t) for t in tokens]


@dataclass(frozen=True)
class SparseSnapshot:
    """One loaded version of a sparse index: its chunk ids, its bm25s retriever, and each chunk's token count
    (None for a version written before counts were kept)."""

    ids: list[str]
    retriever: Any
    lengths: np.ndarray[Any, np.dtype[np.int64]] | None


class SparseIndex:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._version: str | None = None
        self._retriever: Any = None
        self._ids: list[str] = []
        self._lengths: np.ndarray[Any, np.dtype[np.int64]] | None = None

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
            tokens = tokenize(texts)
            retriever = bm25s.BM25()
            retriever.index(tokens, show_progress=False)
            retriever.save(str(target), show_progress=False)
            np.save(target / "lengths.npy", np.array([len(t) for t in tokens], dtype=np.int64))
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
            self._version, self._retriever, self._ids, self._lengths = None, None, [], None
            return
        folder = self.directory / version
        ids = json.loads((folder / "ids.json").read_text())
        retriever = bm25s.BM25.load(str(folder), mmap=False) if ids else None
        lengths = np.load(folder / "lengths.npy") if (folder / "lengths.npy").exists() else None
        self._version, self._retriever, self._ids, self._lengths = version, retriever, ids, lengths

    def snapshot(self) -> SparseSnapshot | None:
        """The current version (reloaded if a newer one was written), or None while the index is empty."""
        with self._lock:
            self._load()
            if self._retriever is None:
                return None
            return SparseSnapshot(self._ids, self._retriever, self._lengths)

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
