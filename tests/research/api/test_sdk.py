"""The SDK without a server: its models read what the OpenAPI document describes, and its transport retries what
may succeed later, not what cannot, and raises typed errors (httpx's mock transport)."""

from __future__ import annotations

import httpx
import pytest
from context1_web_sdk import Client, ConflictError, ForbiddenError, NotFoundError, RateLimitError, ServerError
from context1_web_sdk import http as sdk_http
from context1_web_sdk.models import Citation, Run, Usage
from django.test import Client as DjangoClient

RUN = {
    "id": 7,
    "status": "queued",
    "template": "question",
    "question": "q",
    "url": "/w/x/runs/7/",
    "created_at": "2026-12-06T10:00:00Z",
}


def test_the_sdks_models_read_what_the_openapi_document_describes() -> None:
    schemas = DjangoClient().get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert set(Run.model_fields) == set(schemas["RunOut"]["properties"])
    assert set(Usage.model_fields) == set(schemas["Usage"]["properties"])
    assert set(Citation.model_fields) == set(schemas["Citation"]["properties"])
    assert {"answer", "sources", "num_queries", "pruned_docs", "usage"} <= set(schemas["RunDetail"]["properties"])


def _client(answers: list[httpx.Response], seen: list[httpx.Request]) -> Client:
    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return answers.pop(0)

    return Client(base_url="http://api.test", api_key="c1w_test", transport=httpx.MockTransport(reply))


@pytest.fixture(autouse=True)
def _no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sdk_http.time, "sleep", lambda seconds: None)


def test_a_busy_or_limited_server_is_asked_again_with_the_same_idempotency_key() -> None:
    seen: list[httpx.Request] = []
    answers = [
        httpx.Response(503),
        httpx.Response(429, headers={"Retry-After": "1"}, json={"retry_after": 1}),
        httpx.Response(202, json=RUN),
    ]
    client = _client(answers, seen)
    body = client.request("POST", "/workspaces/x/runs", json={"question": "q"}, headers={"Idempotency-Key": "k"})
    assert body["id"] == 7
    assert [request.headers["Idempotency-Key"] for request in seen] == ["k", "k", "k"]
    assert seen[0].headers["Authorization"] == "Bearer c1w_test"


@pytest.mark.parametrize(
    ("status", "error"),
    [(403, ForbiddenError), (404, NotFoundError), (409, ConflictError), (500, ServerError)],
)
def test_an_error_is_raised_typed_and_a_conflict_is_not_retried(status: int, error: type[Exception]) -> None:
    seen: list[httpx.Request] = []
    answers = [httpx.Response(status, json={"type": "x", "detail": "said why"})] * 4
    with pytest.raises(error, match="said why"):
        _client(list(answers), seen).request("GET", "/runs/7")
    assert len(seen) == (4 if status == 500 else 1)  # 5xx: the first try and three retries


def test_a_rate_limit_that_lasts_says_when_to_come_back() -> None:
    seen: list[httpx.Request] = []
    limited = httpx.Response(429, headers={"Retry-After": "30"}, json={"detail": "slow down", "retry_after": 30})
    with pytest.raises(RateLimitError) as raised:
        _client([limited] * 4, seen).request("GET", "/runs")
    assert raised.value.retry_after == 30


def _frames(*seqs: int, end: bool) -> bytes:
    at = "2026-12-06T17:00:00+00:00"
    text = "retry: 2000\n\n" + "".join(
        f'id: {seq}\nevent: turn_started\ndata: {{"seq": {seq}, "type": "turn_started", "at": "{at}"}}\n\n'
        for seq in seqs
    )
    return (text + (f'event: end\ndata: {{"last_seq": {seqs[-1]}}}\n\n' if end else "")).encode()


def test_a_stream_that_stops_without_its_end_frame_is_resumed_where_it_stopped() -> None:
    seen: list[httpx.Request] = []
    answers = [
        httpx.Response(200, content=_frames(1, 2, end=False)),  # closed cleanly, but before the run's end
        httpx.Response(200, content=_frames(3, end=True)),
    ]
    events = [event.seq for event in _client(answers, seen).events(7)]
    assert events == [1, 2, 3]
    assert [request.headers["Last-Event-ID"] for request in seen] == ["0", "2"]
