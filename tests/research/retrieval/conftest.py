"""Fixtures for index tests: a real Chroma in a temp folder, a hashing embedder, an estimating counter."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromadb.api import ClientAPI

from research.retrieval.corpus import HybridCorpus, SearchConfig
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.rerankers import NoReranker
from research.retrieval.sparse import SparseIndex
from research.retrieval.tokens import EstimatingCounter

_names = itertools.count()


def make_corpus(chroma: ClientAPI, folder: Path, config: SearchConfig | None = None) -> HybridCorpus:
    return HybridCorpus(
        dense=DenseIndex(chroma, f"test-{next(_names)}"),
        sparse=SparseIndex(folder / f"bm25-{next(_names)}"),
        embedder=HashingEmbedder(dimension=128),
        reranker=NoReranker(),
        counter=EstimatingCounter(),
        config=config,
    )


@pytest.fixture
def corpus(chroma: ClientAPI, tmp_path: Path) -> Iterator[HybridCorpus]:
    built = make_corpus(chroma, tmp_path)
    yield built
    built.dense.drop()
    built.close()
