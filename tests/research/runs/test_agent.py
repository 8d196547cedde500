"""The runs' inference backends: INFERENCE_BACKEND and the VLLM_* settings, through the inference registry."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from research.inference.heuristic import HeuristicBackend
from research.inference.openai_compat import OpenAICompatBackend
from research.runs import agent


def test_the_heuristic_backend_gives_each_rollout_its_variant(settings: Any) -> None:
    settings.INFERENCE_BACKEND = "heuristic"
    backends = agent.backend_factory()
    assert isinstance(backends(1), HeuristicBackend)
    assert [backends(n).name for n in range(2)] == ["heuristic-0", "heuristic-1"]


def test_the_openai_backend_reads_the_vllm_settings(settings: Any) -> None:
    settings.INFERENCE_BACKEND, settings.VLLM_BASE_URL, settings.VLLM_MODEL = "openai", "http://127.0.0.1:9", "ctx-1"
    backend = agent.backend_factory()(0)
    assert isinstance(backend, OpenAICompatBackend)
    assert backend.name == "openai_compat:ctx-1"
    assert agent.inference_settings().base_url == "http://127.0.0.1:9"


def test_the_openai_backend_without_a_server_is_improperly_configured(settings: Any) -> None:
    settings.INFERENCE_BACKEND, settings.VLLM_BASE_URL = "openai", None
    with pytest.raises(ImproperlyConfigured, match=r"INFERENCE_BACKEND=openai: the openai backend needs a server URL"):
        agent.backend_factory()
