from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from research.retrieval.embedders import EMBEDDERS, EmbedderSettings, EmbeddingError, EmbeddingUnavailable, embedder_for
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.embedders.openai_http import OpenAIEmbedder
from research.retrieval.embedders.sentence_transformer import SentenceTransformerEmbedder
from tests.support.http_stub import serve


def test_the_hashing_embedder_is_deterministic_and_lexical() -> None:
    embedder = HashingEmbedder(dimension=128)
    a, b, c = embedder.embed_documents(["Globex raised prices", "Globex raised its prices", "the weather in Oslo"])
    assert np.allclose(embedder.embed_query("Globex raised prices"), a)
    assert float(a @ b) > 0.5 > abs(float(a @ c))
    assert np.isclose(np.linalg.norm(a), 1.0)


def _embeddings(request: dict[str, Any]) -> tuple[int, Any]:
    data = [{"index": i, "embedding": [float(len(text)), 1.0, 0.0]} for i, text in enumerate(request["input"])]
    return 200, {"object": "list", "data": list(reversed(data))}


def test_the_http_embedder_batches_orders_and_normalises() -> None:
    seen: list[int] = []

    def route(request: dict[str, Any]) -> tuple[int, Any]:
        seen.append(len(request["input"]))
        return _embeddings(request)

    with serve({"/v1/embeddings": route}) as url:
        vectors = OpenAIEmbedder(base_url=url, model="e5", batch_size=2).embed_documents(["a", "bbb", "cc"])
    assert seen == [2, 1]
    assert vectors.shape == (3, 3)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert vectors[1][0] > vectors[2][0] > vectors[0][0]


def test_the_http_embedder_retries_server_errors_then_succeeds() -> None:
    calls = iter([(503, {"error": "busy"}), (502, {"error": "busy"})])

    def route(request: dict[str, Any]) -> tuple[int, Any]:
        return next(calls, None) or _embeddings(request)

    with serve({"/v1/embeddings": route}) as url:
        vectors = OpenAIEmbedder(base_url=url, model="e5", backoff=0.01).embed_documents(["x"])
    assert vectors.shape == (1, 3)


def test_the_http_embedder_does_not_retry_a_bad_request() -> None:
    calls: list[int] = []

    def route(request: dict[str, Any]) -> tuple[int, Any]:
        calls.append(1)
        return 400, {"error": "unknown model"}

    with serve({"/v1/embeddings": route}) as url, pytest.raises(EmbeddingError, match="answered 400") as error:
        OpenAIEmbedder(base_url=url, model="nope", backoff=0.01).embed_documents(["x"])
    assert not isinstance(error.value, EmbeddingUnavailable)
    assert calls == [1]


def test_the_http_embedder_times_out_and_reports_unavailable() -> None:
    release = threading.Event()

    def hang(request: dict[str, Any]) -> tuple[int, Any]:
        release.wait(5)
        return _embeddings(request)

    with serve({"/v1/embeddings": hang}) as url:
        embedder = OpenAIEmbedder(base_url=url, model="e5", timeout=0.2, max_retries=1, backoff=0.01)
        with pytest.raises(EmbeddingUnavailable, match="unreachable"):
            embedder.embed_documents(["x"])
        release.set()


def test_the_http_embedder_rejects_a_malformed_reply() -> None:
    reply = (200, {"data": [{"index": 0}]})
    with serve({"/v1/embeddings": lambda request: reply}) as url, pytest.raises(EmbeddingError, match="malformed"):
        OpenAIEmbedder(base_url=url, model="e5").embed_documents(["x"])


@pytest.fixture(scope="module")
def minilm() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


def test_the_packaged_minilm_loads_offline_and_ranks_paraphrases(minilm: SentenceTransformerEmbedder) -> None:
    vectors = minilm.embed_documents(
        ["The price of the Team plan went up.", "Team plan pricing increased.", "A recipe for banana bread."]
    )
    assert vectors.shape == (3, 384)
    assert float(vectors[0] @ vectors[1]) > 0.6 > float(vectors[0] @ vectors[2])


def test_the_minilm_embedder_reads_past_256_word_pieces(minilm: SentenceTransformerEmbedder) -> None:
    filler = "The quarterly meeting discussed routine operational matters. " * 60
    tail = "Globex secretly acquired a quantum battery startup."
    with_tail, without_tail = minilm.embed_documents([filler + tail, filler])
    query = minilm.embed_query("Globex acquired a quantum battery startup")
    assert float(query @ with_tail) > float(query @ without_tail) + 0.02


def test_the_registry_builds_each_embedder_from_its_settings() -> None:
    assert EMBEDDERS.names == ("minilm", "minilm-torch", "openai", "hashing")
    hashing = embedder_for("hashing", EmbedderSettings(dimension=64))
    assert isinstance(hashing, HashingEmbedder)
    assert hashing.name == "hashing-64"
    remote = embedder_for("openai", EmbedderSettings(url="http://127.0.0.1:9", model="e5"))
    assert isinstance(remote, OpenAIEmbedder)
    assert remote.name == "openai:e5"


@pytest.mark.parametrize("settings", [EmbedderSettings(model="e5"), EmbedderSettings(url="http://127.0.0.1:9")])
def test_the_openai_embedder_needs_a_url_and_a_model(settings: EmbedderSettings) -> None:
    with pytest.raises(ValueError, match="needs a server URL and a model name"):
        embedder_for("openai", settings)


def test_an_unknown_embedder_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown embedder 'bert' \(known: minilm, minilm-torch, openai, hashing\)"):
        embedder_for("bert", EmbedderSettings())


def test_the_http_embedder_gives_up_after_its_retries() -> None:
    calls: list[int] = []

    def route(request: dict[str, Any]) -> tuple[int, Any]:
        calls.append(1)
        return 503, {"error": "busy"}

    with serve({"/v1/embeddings": route}) as url, pytest.raises(EmbeddingUnavailable, match="answered 503"):
        OpenAIEmbedder(base_url=url, model="e5", max_retries=2, backoff=0.001).embed_documents(["x"])
    assert len(calls) == 3
