"""Searchable at once, refined in the background: chunks stored without vectors are found by BM25, read and
grepped at once; ``refine`` embeds them and moves them into the dense index, a document at a time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from chromadb.api import ClientAPI

from research.retrieval.corpus import HybridCorpus
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.rerankers import NoReranker
from research.retrieval.sparse import SparseIndex
from research.retrieval.tokens import EstimatingCounter
from research.retrieval.types import Chunk, chunk_id_for

DOCS = {
    "globex": ["Globex raised the Team plan to 49 dollars per seat in June 2026.", "Globex hired Dana Reyes as VP."],
    "initech": ["Initech sells vector search to banks.", "Initech pricing is usage based since March 2026."],
}


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__(dimension=128)
        self.documents_embedded = 0

    def embed_documents(self, texts):  # type: ignore[no-untyped-def]
        self.documents_embedded += len(texts)
        return super().embed_documents(texts)


@pytest.fixture
def staged(chroma: ClientAPI, tmp_path: Path) -> Iterator[HybridCorpus]:
    corpus = HybridCorpus(
        dense=DenseIndex(chroma, "staged"),
        words=DenseIndex(chroma, "staged-words"),
        sparse=SparseIndex(tmp_path / "bm25"),
        embedder=CountingEmbedder(),
        reranker=NoReranker(),
        counter=EstimatingCounter(),
    )
    for doc_id, texts in DOCS.items():
        corpus.add_words([Chunk(chunk_id_for(doc_id, i), doc_id, i, t, title=doc_id) for i, t in enumerate(texts)])
    corpus.refresh_sparse()
    yield corpus
    corpus.dense.drop()
    corpus.words.drop()  # type: ignore[union-attr]
    corpus.close()


def test_chunks_without_vectors_are_found_by_words_read_and_grepped_at_once(staged: HybridCorpus) -> None:
    embedder = staged.embedder
    assert isinstance(embedder, CountingEmbedder)
    assert embedder.documents_embedded == 0
    assert staged.waiting() == 4
    assert staged.dense.count() == 0
    result = staged.search("Globex Team plan price June")
    assert result.chunks[0].chunk_id == "globex#0"
    assert result.chunks[0].ranks == {"bm25": 1}  # found by words alone: no vector yet
    assert [c.chunk_id for c in staged.document_chunks("initech")] == ["initech#0", "initech#1"]
    assert [c.chunk_id for c in staged.grep_matches("usage based", exclude=frozenset())] == ["initech#1"]
    assert staged.chunks_by_id(["globex#1"])["globex#1"].body_tokens is not None  # counted when stored


def test_refine_moves_a_document_into_the_dense_index_and_search_then_uses_its_vectors(staged: HybridCorpus) -> None:
    moved: list[int] = []
    assert staged.refine(["globex", "missing"], progress=moved.append) == 2
    assert moved == [2]
    assert staged.waiting() == 2
    assert staged.dense.count() == 2
    result = staged.search("Globex Team plan price June")
    assert result.chunks[0].chunk_id == "globex#0"
    assert set(result.chunks[0].ranks) == {"bm25", "dense"}
    assert [c.chunk_id for c in staged.document_chunks("globex")] == ["globex#0", "globex#1"]
    assert staged.refine(["globex"]) == 0  # done already: a retried task embeds nothing twice
    assert staged.refresh_sparse() == 4  # BM25 holds both stores' chunks, each once


def test_a_chunk_in_both_stores_for_a_moment_is_counted_once(staged: HybridCorpus) -> None:
    waiting = staged.words.document_chunks("initech")  # type: ignore[union-attr]
    staged.dense.upsert(waiting, staged.embedder.embed_documents([c.text for c in waiting]))  # crash before delete
    assert staged.refresh_sparse() == 4
    assert [c.chunk_id for c in staged.document_chunks("initech")] == ["initech#0", "initech#1"]
    assert staged.refine(["initech"]) == 2  # the retry finishes the move
    assert staged.waiting() == 2


def test_deleting_a_document_removes_it_from_both_stores(staged: HybridCorpus) -> None:
    staged.refine(["globex"])
    staged.delete_documents(["globex", "initech"])
    assert staged.waiting() == 0
    assert staged.dense.count() == 0
    assert staged.refresh_sparse() == 0
