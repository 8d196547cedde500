"""`manage.py bench_api` end to end: SSE and WebSocket clients on the same small runs through real Daphne, a real
worker and Redis, and the SDK against plain httpx."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.services


def test_the_command_compares_sse_with_the_websocket_and_the_sdk_with_plain_http(
    bench_command_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = bench_command_env / "api.json"
    call_command("bench_api", "--runs", "2", "--events", "30", "--interval-ms", "5", "--json", str(path))
    figures = json.loads(path.read_text())
    assert (figures["runs"], figures["events"], figures["sse_clients"]) == (2, 30, 2)
    for transport in ("sse", "websocket"):
        assert figures[transport]["lost"] == figures[transport]["duplicated"] == 0, transport
        assert figures[transport]["p95_ms"] >= figures[transport]["p50_ms"] > 0
    ratio = figures["sse"]["p95_ms"] / figures["websocket"]["p95_ms"]
    assert figures["ratio_p95"] == pytest.approx(ratio, rel=0.01, abs=0.006)
    sdk = figures["sdk"]
    assert sdk["events_read"] == sdk["baseline_events_read"] == 2 * 2 * 30  # each run read twice by each
    assert sdk["per_run_ms"] > 0
    assert sdk["baseline_per_run_ms"] > 0
    out = capsys.readouterr().out
    assert "ratio SSE/WebSocket" in out
    assert "SDK per run" in out
