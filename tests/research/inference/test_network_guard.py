"""The network guard: in tests, backends reach loopback servers only, unless a test allows more on purpose."""

from __future__ import annotations

import httpx
import pytest

from research.harness.messages import Message
from research.inference import network_guard
from research.inference.network_guard import RealRequestsForbidden, override_allow_network
from research.inference.openai_compat import OpenAICompatBackend


@pytest.mark.parametrize(
    "url", ["http://vllm:8000", "https://api.openai.com", "http://10.0.0.5:8000", "http://[::2]:1"]
)
def test_it_refuses_a_backend_for_a_remote_server(url: str) -> None:
    with pytest.raises(RealRequestsForbidden, match="ALLOW_NETWORK is False"):
        OpenAICompatBackend(base_url=url, model="m")


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8000", "http://127.3.2.1:9", "http://localhost:8000", "http://[::1]:8000"]
)
def test_it_allows_loopback_servers(url: str) -> None:
    assert OpenAICompatBackend(base_url=url, model="m").name == "openai_compat:m"


def test_it_allows_a_remote_server_only_inside_an_explicit_override() -> None:
    with override_allow_network(True):
        OpenAICompatBackend(base_url="http://vllm:8000", model="m")
    assert network_guard.ALLOW_NETWORK is False
    with pytest.raises(RealRequestsForbidden):
        OpenAICompatBackend(base_url="http://vllm:8000", model="m")


async def test_it_refuses_a_call_made_after_the_network_was_switched_off() -> None:
    sent: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={})

    with override_allow_network(True):
        backend = OpenAICompatBackend(base_url="http://vllm:8000", model="m", transport=httpx.MockTransport(record))
    with pytest.raises(RealRequestsForbidden):
        await backend.complete([Message("user", "hi")], [])
    with pytest.raises(RealRequestsForbidden):
        await backend.tokenize([Message("user", "hi")])
    assert sent == []


def test_it_switches_the_network_off_for_good_when_a_suite_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(network_guard, "ALLOW_NETWORK", True)
    network_guard.forbid_real_requests()
    assert network_guard.ALLOW_NETWORK is False
