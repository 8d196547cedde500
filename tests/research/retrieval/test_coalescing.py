"""Query embeddings shared between concurrent searches: same vectors as one at a time, fewer calls, remembered
queries, failures reaching every waiter of their batch."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest

from research.retrieval.embedders import Vectors
from research.retrieval.embedders.coalescing import CoalescingEmbedder
from research.retrieval.embedders.hashing import HashingEmbedder


class Slow(HashingEmbedder):
    """The hashing embedder with a fixed cost a call (as a model's per-call overhead), counting its batches."""

    def __init__(self, *, seconds: float = 0.05, fail_on: str = "") -> None:
        super().__init__()
        self.seconds, self.fail_on, self.batches = seconds, fail_on, []  # type: ignore[var-annotated]
        self.release = threading.Event()

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        self.batches.append(list(texts))
        self.release.wait(self.seconds)
        if self.fail_on in texts:
            raise ConnectionError("embedding server down")
        return super().embed_queries(texts)


def _concurrently(embedder: CoalescingEmbedder, queries: list[str]) -> dict[str, Vectors | BaseException]:
    results: dict[str, Vectors | BaseException] = {}
    start = threading.Barrier(len(queries))

    def search(query: str) -> None:
        start.wait(timeout=10)
        try:
            results[query] = embedder.embed_query(query)
        except BaseException as error:
            results[query] = error

    threads = [threading.Thread(target=search, args=(query,)) for query in queries]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_concurrent_queries_are_embedded_in_few_calls_with_the_same_vectors() -> None:
    inner = Slow()
    embedder = CoalescingEmbedder(inner)
    queries = [f"facet {n} of Halvorix" for n in range(9)]
    results = _concurrently(embedder, queries)
    reference = HashingEmbedder()
    for query in queries:
        assert np.allclose(results[query], reference.embed_query(query))  # type: ignore[arg-type]
    assert sum(len(batch) for batch in inner.batches) == 9
    assert len(inner.batches) < 9  # the first serves itself, the waiting ones go as one batch or a few


def test_a_query_seen_before_is_not_embedded_again_and_cannot_be_changed() -> None:
    inner = Slow(seconds=0)
    embedder = CoalescingEmbedder(inner, remembered=2)
    first = embedder.embed_query("the whole question")
    assert embedder.embed_query("the whole question") is first
    assert inner.batches == [["the whole question"]]
    with pytest.raises(ValueError, match="read-only"):
        first[0] = 1.0
    embedder.embed_query("b")
    embedder.embed_query("c")  # pushes the oldest out
    embedder.embed_query("the whole question")
    assert inner.batches[-1] == ["the whole question"]


def test_a_failed_batch_fails_its_waiters_only_and_the_next_caller_serves() -> None:
    inner = Slow(fail_on="broken query")
    embedder = CoalescingEmbedder(inner)
    results = _concurrently(embedder, ["broken query", "fine query"])
    failed = [q for q, r in results.items() if isinstance(r, BaseException)]
    assert "broken query" in failed
    assert all(isinstance(results[q], ConnectionError) for q in failed)
    assert not isinstance(embedder.embed_query("fine again"), BaseException)  # nobody left serving forever
    assert embedder.embed_documents(["a document"]).shape == (1, 256)  # ingestion passes straight through


class Short(HashingEmbedder):
    """A server that answers fewer vectors than it was asked for."""

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return super().embed_queries(texts)[:-1]


def test_a_wrong_answer_fails_its_waiters_and_nobody_hangs() -> None:
    embedder = CoalescingEmbedder(Short())
    with pytest.raises(RuntimeError, match="returned 0 vectors for 1 queries"):
        embedder.embed_query("alone")
    with pytest.raises(RuntimeError, match="returned"):
        embedder.embed_query("again")  # served again: the failure did not leave the embedder stuck
