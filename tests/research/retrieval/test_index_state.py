"""A hypothesis state machine over the hybrid index: add, re-add and delete documents in any order.

After every step: chunk counts match a model, ids are unique, and BM25 and dense search alike
return only live chunks.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromadb.api import ClientAPI
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from research.retrieval.types import Chunk, chunk_id_for
from tests.research.retrieval.conftest import make_corpus

# Where the machines keep their indexes: the session's Chroma and a folder under pytest's own temporary
# directory, set by the fixture below (hypothesis builds the machines itself, so they cannot take fixtures).
# Each machine removes its BM25 folder when it ends: a run leaves nothing in the system temp folder.
_HOME: dict[str, Any] = {}


@pytest.fixture(scope="module", autouse=True)
def _index_home(chroma: ClientAPI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    _HOME.update(client=chroma, folder=tmp_path_factory.mktemp("index-state"))
    yield
    _HOME.clear()


WORDS = ["globex", "pricing", "june", "nimbus", "hiring", "europe", "banks", "retail", "seat", "vector"]
doc_ids = st.sampled_from([f"doc{i}" for i in range(6)])
bodies = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join), min_size=1, max_size=4)


class IndexMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="bm25-state-", dir=_HOME["folder"]))
        self.corpus = make_corpus(_HOME["client"], self.folder)
        self.model: dict[str, list[str]] = {}

    def _write(self, doc_id: str, texts: list[str]) -> None:
        # Like ingestion: a changed document first loses its old chunks, then gets the new ones.
        self.corpus.delete_documents([doc_id])
        chunks = [Chunk(chunk_id_for(doc_id, i), doc_id, i, text) for i, text in enumerate(texts)]
        self.corpus.add(chunks)
        self.corpus.refresh_sparse()
        self.model[doc_id] = texts

    @rule(doc_id=doc_ids, texts=bodies)
    def add(self, doc_id: str, texts: list[str]) -> None:
        self._write(doc_id, texts)

    @rule(doc_id=doc_ids)
    def re_add(self, doc_id: str) -> None:
        if doc_id in self.model:
            self._write(doc_id, self.model[doc_id])

    @rule(doc_id=doc_ids)
    def delete(self, doc_id: str) -> None:
        self.corpus.delete_documents([doc_id])
        self.corpus.refresh_sparse()
        self.model.pop(doc_id, None)

    def _live(self) -> set[str]:
        return {chunk_id_for(d, i) for d, texts in self.model.items() for i in range(len(texts))}

    @invariant()
    def counts_match_and_ids_are_unique(self) -> None:
        ids = [chunk_id for chunk_id, *_ in self.corpus.dense.iter_headed_texts()]
        assert len(ids) == len(set(ids))
        assert set(ids) == self._live()
        assert self.corpus.sparse.count() == len(self._live())

    @invariant()
    def search_returns_only_live_chunks(self) -> None:
        live = self._live()
        for word in ("globex pricing", "nimbus europe"):
            assert {i for i, _ in self.corpus.sparse.query(word, n=50, exclude=frozenset())} <= live
            dense = self.corpus.dense.query(self.corpus.embedder.embed_query(word), n=50, exclude=frozenset())
            assert set(dense) <= live
            assert {c.chunk_id for c in self.corpus.search(word, budget=100_000).chunks} <= live

    def teardown(self) -> None:
        self.corpus.dense.drop()
        self.corpus.close()
        shutil.rmtree(self.folder, ignore_errors=True)


IndexMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=12, deadline=None)
TestIndexMachine = IndexMachine.TestCase
