"""The run form's estimate of model calls and tokens says what it means where this server has no model (the offline
heuristic agent): a run here costs none; the figures are what it would take with the Context-1 model."""

from __future__ import annotations

import lxml.html
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _estimate(client, workspace, url_name: str) -> str:  # type: ignore[no-untyped-def]
    query = {"template": "question", "rollouts": 2, "budget": 32768, "max_turns": 6}
    page = client.get(reverse(url_name, kwargs={"slug": workspace.slug}), query).content
    return " ".join(lxml.html.fromstring(page).xpath('//*[@id="run-estimate"]')[0].text_content().split())


def test_the_offline_agent_s_estimate_says_it_costs_nothing_here(team, login, settings) -> None:  # type: ignore[no-untyped-def]
    workspace, _, ada, _, _ = team
    settings.INFERENCE_BACKEND = "heuristic"
    client = login(ada)
    for name in ("run_form_estimate", "run_index"):
        text = _estimate(client, workspace, name)
        assert "No model on this server" in text, text
        assert "INFERENCE_BACKEND=heuristic" in text
        assert "With the Context-1 model (VLLM_BASE_URL) it would take about " in text
    assert "it would take about 12 model calls" in _estimate(client, workspace, "run_form_estimate")


def test_with_a_model_the_estimate_is_the_run_s_cost(team, login, settings) -> None:  # type: ignore[no-untyped-def]
    workspace, _, ada, _, _ = team
    settings.INFERENCE_BACKEND, settings.VLLM_BASE_URL = "openai", "http://127.0.0.1:9/"
    text = _estimate(login(ada), workspace, "run_form_estimate")
    assert text.startswith("Estimate: about 12 model calls and ")
    assert "No model" not in text
