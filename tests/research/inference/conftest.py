"""Inference tests reach only loopback servers: real network requests are switched off for each test."""

from __future__ import annotations

import pytest

from research.inference import network_guard


@pytest.fixture(autouse=True)
def _forbid_real_model_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(network_guard, "ALLOW_NETWORK", False)
