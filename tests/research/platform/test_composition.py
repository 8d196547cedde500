"""The composition root builds the embedder and reranker that the settings name, through their registries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from research.platform import composition
from research.retrieval.embedders.coalescing import CoalescingEmbedder
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.embedders.openai_http import OpenAIEmbedder
from research.retrieval.rerankers import NoReranker
from research.retrieval.rerankers.http import HttpReranker


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    """The built objects are cached per process: start and leave each test with none."""
    composition.embedder.cache_clear()
    composition.reranker.cache_clear()
    yield
    composition.embedder.cache_clear()
    composition.reranker.cache_clear()


def test_it_builds_the_configured_embedder(settings: Any) -> None:
    settings.EMBEDDER_BACKEND = "hashing"
    built = composition.embedder()
    assert isinstance(built, CoalescingEmbedder)  # queries coalesced and remembered
    assert isinstance(built.inner, HashingEmbedder)
    assert composition.embedder().name == "hashing-256"  # the product's width; existing indexes depend on it
    composition.embedder.cache_clear()
    settings.EMBEDDER_BACKEND, settings.EMBEDDINGS_URL, settings.EMBEDDINGS_MODEL = "openai", "http://127.0.0.1:9", "e5"
    assert isinstance(composition.embedder().inner, OpenAIEmbedder)  # type: ignore[attr-defined]


def test_a_missing_embedder_setting_is_improperly_configured(settings: Any) -> None:
    settings.EMBEDDER_BACKEND, settings.EMBEDDINGS_URL = "openai", None
    with pytest.raises(ImproperlyConfigured, match=r"EMBEDDER_BACKEND=openai: .*EMBEDDINGS_URL, EMBEDDINGS_MODEL"):
        composition.embedder()


def test_it_builds_the_configured_reranker(settings: Any) -> None:
    settings.RERANKER_BACKEND = "none"
    assert isinstance(composition.reranker(), NoReranker)
    composition.reranker.cache_clear()
    settings.RERANKER_BACKEND, settings.RERANKER_URL, settings.RERANKER_MODEL = "http", "http://127.0.0.1:9/r", "bge"
    assert isinstance(composition.reranker(), HttpReranker)
    composition.reranker.cache_clear()
    settings.RERANKER_BACKEND, settings.RERANKER_MODEL_PATH = "cross-encoder", None
    with pytest.raises(ImproperlyConfigured, match=r"RERANKER_BACKEND=cross-encoder: .*RERANKER_MODEL_PATH"):
        composition.reranker()
