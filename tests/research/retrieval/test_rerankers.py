from __future__ import annotations

from typing import Any

import pytest

from research.retrieval.rerankers import RERANKERS, NoReranker, RerankError, RerankerSettings, reranker_for
from research.retrieval.rerankers.cross_encoder import CrossEncoderReranker
from research.retrieval.rerankers.http import HttpReranker
from tests.support.http_stub import serve


def test_no_reranker_keeps_the_order() -> None:
    assert NoReranker().scores("q", ["a", "b"]) is None


@pytest.mark.parametrize(
    "reply",
    [
        {"results": [{"index": 1, "relevance_score": 0.9}, {"index": 0, "relevance_score": 0.1}]},  # vLLM, Cohere
        [{"index": 1, "score": 0.9}, {"index": 0, "score": 0.1}],  # TEI
    ],
)
def test_the_http_reranker_reads_vllm_cohere_and_tei_replies(reply: Any) -> None:
    requests: list[dict[str, Any]] = []

    def route(request: dict[str, Any]) -> tuple[int, Any]:
        requests.append(request)
        return 200, reply

    with serve({"/rerank": route}) as url:
        scores = HttpReranker(url=f"{url}/rerank", model="bge").scores("pricing", ["a", "b"])
    assert scores == [0.1, 0.9]
    assert requests[0]["query"] == "pricing"
    assert requests[0]["documents"] == ["a", "b"]


def test_the_http_reranker_reports_errors() -> None:
    failing = (500, {"error": "x"})
    with serve({"/rerank": lambda request: failing}) as url, pytest.raises(RerankError, match="endpoint failed"):
        HttpReranker(url=f"{url}/rerank", model="bge").scores("q", ["a"])
    partial = (200, {"results": [{"index": 0, "relevance_score": 1}]})
    with serve({"/rerank": lambda request: partial}) as url, pytest.raises(RerankError, match="every document"):
        HttpReranker(url=f"{url}/rerank", model="bge").scores("q", ["a", "b"])


def test_the_cross_encoder_needs_a_local_folder(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(FileNotFoundError, match="nothing is downloaded"):
        CrossEncoderReranker(tmp_path / "missing")


def test_the_cross_encoder_loads_a_local_model_offline_and_scores_pairs() -> None:
    import torch

    from research.retrieval.embedders.sentence_transformer import packaged_minilm_path

    torch.manual_seed(0)  # the packaged model has no classification head: it is initialised at random
    reranker = CrossEncoderReranker(packaged_minilm_path())
    scores = reranker.scores("Globex pricing", ["Globex raised prices.", "Banana bread recipe.", ""])
    assert scores is not None
    assert len(scores) == 3
    assert all(isinstance(score, float) for score in scores)
    assert reranker.name == "cross-encoder:model"


def test_the_registry_builds_each_reranker_from_its_settings() -> None:
    assert RERANKERS.names == ("none", "cross-encoder", "http")
    assert isinstance(reranker_for("none", RerankerSettings()), NoReranker)
    http = reranker_for("http", RerankerSettings(url="http://127.0.0.1:9/rerank", model="bge"))
    assert isinstance(http, HttpReranker)
    assert http.name == "http:bge"


def test_the_registry_refuses_missing_settings_and_unknown_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=r"needs a local model folder \(RERANKER_MODEL_PATH\)"):
        reranker_for("cross-encoder", RerankerSettings())
    with pytest.raises(FileNotFoundError, match="nothing is downloaded"):
        reranker_for("cross-encoder", RerankerSettings(model_path=tmp_path / "missing"))
    with pytest.raises(ValueError, match=r"needs the URL of its /rerank endpoint \(RERANKER_URL\)"):
        reranker_for("http", RerankerSettings(model="bge"))
    with pytest.raises(ValueError, match=r"unknown reranker 'colbert' \(known: none, cross-encoder, http\)"):
        reranker_for("colbert", RerankerSettings())
