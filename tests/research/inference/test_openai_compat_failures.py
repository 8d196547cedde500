"""How the OpenAI-compatible backend fails: retries, refusals, timeouts, malformed replies, broken streams."""

from __future__ import annotations

import asyncio
import socket

import pytest

from research.harness.messages import Message
from research.harness.ports import InferenceError, InferenceUnavailable
from research.inference.openai_compat import OpenAICompatBackend
from tests.support.openai_server import MODEL, Reply, serve_openai

QUESTION = [Message("user", "Who founded Acme?")]
BOUND = 10  # seconds: a hanging call fails the test instead of blocking the suite


async def complete(base_url: str, *, on_delta: list[str] | None = None, **settings: object) -> str:
    backend = OpenAICompatBackend(base_url=base_url, model=MODEL, backoff=0, **settings)  # type: ignore[arg-type]
    callback = on_delta.append if on_delta is not None else None
    turn = await asyncio.wait_for(backend.complete(QUESTION, [], on_delta=callback), BOUND)
    return turn.content


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("status", [500, 502, 429])
async def test_it_retries_a_transient_server_error_then_succeeds(stream: bool, status: int) -> None:
    with serve_openai([Reply(status=status, error="busy"), Reply(content="Ada.")]) as server:
        assert await complete(server.base_url, stream=stream) == "Ada."
    assert len(server.requests) == 2


@pytest.mark.parametrize("stream", [True, False])
async def test_it_gives_up_after_max_retries_with_inference_unavailable(stream: bool) -> None:
    with (
        serve_openai([Reply(status=503, error="engine overloaded")] * 5) as server,
        pytest.raises(InferenceUnavailable, match=r"HTTP 503: engine overloaded.*after 3 attempts"),
    ):
        await complete(server.base_url, stream=stream, max_retries=2)
    assert len(server.requests) == 3


@pytest.mark.parametrize("stream", [True, False])
async def test_it_does_not_retry_a_bad_request(stream: bool) -> None:
    with (
        serve_openai([Reply(status=400, error="The model `x` does not exist."), Reply(content="no")]) as server,
        pytest.raises(InferenceError, match="HTTP 400: The model `x` does not exist") as raised,
    ):
        await complete(server.base_url, stream=stream)
    assert not isinstance(raised.value, InferenceUnavailable)
    assert len(server.requests) == 1


async def test_it_quotes_at_most_300_characters_of_the_servers_message() -> None:
    legacy_vllm_error = b'{"object": "error", "message": "' + b"x" * 1000 + b'", "type": "BadRequestError"}'
    with (
        serve_openai([Reply(status=422, raw=legacy_vllm_error)]) as server,
        pytest.raises(InferenceError) as raised,
    ):
        await complete(server.base_url)
    assert "x" * 300 in str(raised.value)
    assert "x" * 301 not in str(raised.value)


@pytest.mark.parametrize("stream", [True, False])
async def test_it_times_out_instead_of_hanging(stream: bool) -> None:
    with (
        serve_openai([Reply(content="late", delay=1.0)] * 2) as server,
        pytest.raises(InferenceUnavailable, match=r"ReadTimeout.*after 2 attempts"),
    ):
        await complete(server.base_url, stream=stream, timeout=0.2, max_retries=1)
    assert len(server.requests) == 2


async def test_it_reports_a_server_that_does_not_answer() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(InferenceUnavailable, match=r"ConnectError.*after 2 attempts"):
        await complete(f"http://127.0.0.1:{port}", max_retries=1)


@pytest.mark.parametrize(
    ("body", "problem"),
    [(b"<html>Bad gateway</html>", "not JSON"), (b'{"id": "x", "choices": []}', "no choices")],
)
async def test_it_refuses_a_reply_it_cannot_read(body: bytes, problem: str) -> None:
    with (
        serve_openai([Reply(raw=body), Reply(content="never asked")]) as server,
        pytest.raises(InferenceError, match=problem) as raised,
    ):
        await complete(server.base_url, stream=False)
    assert not isinstance(raised.value, InferenceUnavailable)
    assert len(server.requests) == 1


async def test_it_refuses_a_stream_chunk_that_is_not_json() -> None:
    with (
        serve_openai([Reply(raw=b"data: {not json\n\n"), Reply(content="never asked")]) as server,
        pytest.raises(InferenceError, match=r"malformed stream chunk \(not JSON\)"),
    ):
        await complete(server.base_url)
    assert len(server.requests) == 1


async def test_a_streamed_request_answered_with_a_page_says_so_and_is_not_retried() -> None:
    """A proxy's error page (or a URL that is not the API) sent with 200 is not a stream that broke."""
    with (
        serve_openai([Reply(raw=b"<html>\n<b>Proxy error</b>\n</html>"), Reply(content="never asked")]) as server,
        pytest.raises(InferenceError, match=r"not JSON events: '<html> <b>Proxy error</b> </html>'") as raised,
    ):
        await complete(server.base_url)
    assert not isinstance(raised.value, InferenceUnavailable)
    assert len(server.requests) == 1


async def test_keep_alive_comments_before_the_first_event_are_not_a_stray_page() -> None:
    event = b'data: {"choices": [{"delta": {"content": "hi"}, "finish_reason": "stop"}]}\n\n'
    stream = b": keep-alive\n\nevent: message\n" + event
    with serve_openai([Reply(raw=stream + b"data: [DONE]\n\n")]) as server:
        assert await complete(server.base_url) == "hi"


@pytest.mark.parametrize(("code", "retried"), [(500, True), (400, False)])
async def test_it_reports_an_error_sent_inside_the_stream(code: int, retried: bool) -> None:
    event = b'data: {"error": {"message": "engine failed", "code": %d}}\n\n' % code
    with (
        serve_openai([Reply(raw=event)] * 2) as server,
        pytest.raises(InferenceError, match="mid-stream: engine failed") as raised,
    ):
        await complete(server.base_url, max_retries=1)
    assert isinstance(raised.value, InferenceUnavailable) is retried
    assert len(server.requests) == (2 if retried else 1)


async def test_it_does_not_retry_a_stream_cut_after_text_reached_on_delta() -> None:
    deltas: list[str] = []
    cut = Reply(content="Ada founded Acme in 1901.", piece=3, cut_after=3)  # role chunk, "Ada", " fo"
    with (
        serve_openai([cut, Reply(content="again")]) as server,
        pytest.raises(InferenceUnavailable, match=r"stream broke before \[DONE\].*not retried"),
    ):
        await complete(server.base_url, on_delta=deltas)
    assert deltas == ["Ada", " fo"]
    assert len(server.requests) == 1


async def test_it_retries_a_stream_cut_before_any_text() -> None:
    deltas: list[str] = []
    with serve_openai([Reply(content="lost", cut_after=1), Reply(content="Ada.", piece=2)]) as server:
        assert await complete(server.base_url, on_delta=deltas) == "Ada."
    assert deltas == ["Ad", "a."]
    assert len(server.requests) == 2


async def test_it_gives_up_on_a_stream_that_keeps_breaking() -> None:
    with (
        serve_openai([Reply(content="lost", cut_after=1)] * 2) as server,
        pytest.raises(InferenceUnavailable, match=r"stream broke before \[DONE\].*after 2 attempts"),
    ):
        await complete(server.base_url, max_retries=1)
    assert len(server.requests) == 2


async def test_it_keeps_a_finished_turn_when_only_usage_and_done_are_lost() -> None:
    finished = Reply(content="Ada.", piece=10, cut_after=3)  # role chunk, content, finish; no usage, no [DONE]
    with serve_openai([finished]) as server:
        backend = OpenAICompatBackend(base_url=server.base_url, model=MODEL, backoff=0)
        turn = await asyncio.wait_for(backend.complete(QUESTION, []), BOUND)
    assert (turn.content, turn.finish_reason, turn.usage) == ("Ada.", "stop", None)
