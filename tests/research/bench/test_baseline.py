from __future__ import annotations

from pathlib import Path

from research.bench.baseline import LangChainStyleHybrid, weighted_rrf, whitespace_split
from research.retrieval.chroma_client import open_client
from research.retrieval.dense import DenseIndex
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.types import Chunk


def _chunk(chunk_id: str, text: str) -> Chunk:
    return Chunk(chunk_id, chunk_id.split("#", maxsplit=1)[0], 0, text)


def test_weighted_rrf_scores_by_text_and_keeps_the_first_copy() -> None:
    a, b, c = _chunk("a#0", "alpha"), _chunk("b#0", "beta"), _chunk("c#0", "gamma")
    b_again = _chunk("b2#0", "beta")  # same text, another id: LangChain collapses them
    fused = weighted_rrf([[a, b], [b_again, c]], [0.5, 0.5])
    assert [chunk.chunk_id for chunk in fused] == ["b#0", "a#0", "c#0"]


def test_weighted_rrf_is_stable_for_ties() -> None:
    a, b = _chunk("a#0", "alpha"), _chunk("b#0", "beta")
    assert [c.chunk_id for c in weighted_rrf([[a], [b]], [0.5, 0.5])] == ["a#0", "b#0"]


def test_whitespace_split_keeps_case_and_punctuation_like_langchain() -> None:
    assert whitespace_split("The  Cat sat.\n") == ["The", "Cat", "sat."]


def test_the_baseline_finds_the_chunk_with_the_query_terms(tmp_path: Path) -> None:
    texts = ["red apples grow here", "blue whales swim far", "green grass and red roses", "quiet night"]
    chunks = [_chunk(f"d{i}#0", text) for i, text in enumerate(texts)]
    embedder = HashingEmbedder(dimension=64)
    dense = DenseIndex(open_client(url=None, path=tmp_path / "chroma"), "baseline-test")
    dense.upsert(chunks, embedder.embed_documents(texts))
    baseline = LangChainStyleHybrid(chunks, dense=dense, embedder=embedder, k=3)
    assert baseline.bm25("whales")[0].chunk_id == "d1#0"
    results = baseline.search("blue whales")
    assert results[0].chunk_id == "d1#0"
    assert len({c.text for c in results}) == len(results) <= 6
