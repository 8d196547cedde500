"""An inference backend for any OpenAI-compatible chat-completions server: vLLM serving Context-1 in production."""

from __future__ import annotations

import ssl
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import httpx

from research.harness.messages import Message, ModelTurn, ToolSpec
from research.harness.ports import DeltaCallback, InferenceBackend, InferenceError, InferenceUnavailable
from research.inference.network_guard import check_allowed
from research.inference.openai_wire import StreamAssembler, error_message, messages_to_wire, turn_from_reply
from research.inference.registry import BackendFactory, InferenceSettings
from research.protocol.retry import Retry, exponential

T = TypeVar("T")
CHAT_PATH = "/v1/chat/completions"


def factory(settings: InferenceSettings) -> BackendFactory:
    """The registry's entry: one client per rollout to the server at ``settings.base_url`` (required)."""
    if not settings.base_url:
        raise ValueError("the openai backend needs a server URL (--base-url or VLLM_BASE_URL)")
    base_url = settings.base_url

    def backend(rollout: int) -> InferenceBackend:
        return OpenAICompatBackend(
            base_url=base_url,
            model=settings.model,
            api_key=settings.api_key,
            timeout=settings.timeout,
            temperature=settings.temperature,
        )

    return backend


class OpenAICompatBackend:
    """Calls ``POST {base_url}/v1/chat/completions``, streaming by default (docs/vllm.md has the server side).

    Failures: connection errors, timeouts, HTTP 429 and 5xx are retried ``max_retries`` times with exponential
    backoff (``backoff * 2**n`` seconds), then raise ``InferenceUnavailable``; any other 4xx, or a reply that
    cannot be read, raises ``InferenceError`` at once. A streamed reply that breaks after some content reached
    ``on_delta`` is never retried (the text would be delivered twice): it raises ``InferenceUnavailable``
    saying so. Breaks before that point are retried like any transient failure.

    Time limits: ``timeout`` bounds every network read (for a stream: the wait for each next piece) and write;
    connecting is bounded by ``connect_timeout``. Each call opens its own HTTP client, so one backend can serve
    several event loops (Celery tasks each run their own); the TLS context is built once and reused.
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 120.0,
        connect_timeout: float = 10.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        temperature: float | None = None,
        max_tokens: int | None = None,
        stream: bool = True,
        extra_body: Mapping[str, Any] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        send_reasoning: bool = False,
    ) -> None:
        if timeout <= 0 or connect_timeout <= 0 or max_retries < 0 or backoff < 0:
            raise ValueError("timeouts must be positive, max_retries and backoff not negative")
        check_allowed(base_url)
        self._base_url, self._model = base_url.rstrip("/"), model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = httpx.Timeout(timeout, connect=min(connect_timeout, timeout))
        self._retry = Retry(on=InferenceUnavailable, delays=exponential(max_retries, backoff))
        self._sampling = {k: v for k, v in (("temperature", temperature), ("max_tokens", max_tokens)) if v is not None}
        self._stream, self._extra_body, self._send_reasoning = stream, dict(extra_body or {}), send_reasoning
        self._transport = _BorrowedTransport(transport) if transport is not None else None
        self._tls: ssl.SSLContext | None = None

    @property
    def name(self) -> str:
        return f"openai_compat:{self._model}"

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], *, on_delta: DeltaCallback | None = None
    ) -> ModelTurn:
        check_allowed(self._base_url)
        body = self._chat_body(messages, tools)
        first_call_number = sum(len(message.tool_calls) for message in messages)
        if not self._stream:
            payload = await self._retrying(CHAT_PATH, lambda client: self._post_once(client, CHAT_PATH, body))
            return turn_from_reply(payload, first_call_number=first_call_number)
        relay = _Relay(on_delta) if on_delta is not None else None

        async def attempt(client: httpx.AsyncClient) -> ModelTurn:
            assembler = StreamAssembler(relay, first_call_number=first_call_number)
            return await self._stream_once(client, body, assembler)

        return await self._retrying(CHAT_PATH, attempt, may_retry=lambda: relay is None or relay.chars == 0)

    async def tokenize(self, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> int | None:
        """Exact prompt tokens by vLLM's ``POST /tokenize`` (chat template applied); None when it has no such route."""
        check_allowed(self._base_url)
        body: dict[str, Any] = {"model": self._model, "messages": self._wire(messages), "add_generation_prompt": True}
        if tools:
            body["tools"] = [tool.as_openai() for tool in tools]
        payload = await self._retrying("/tokenize", lambda client: self._post_once(client, "/tokenize", body, True))
        if payload is None:
            return None
        count = payload.get("count") if isinstance(payload, dict) else None
        if not isinstance(count, int):
            raise InferenceError(f"POST {self._base_url}/tokenize: the reply has no integer count")
        return count

    def _wire(self, messages: Sequence[Message]) -> list[dict[str, Any]]:
        return messages_to_wire(messages, send_reasoning=self._send_reasoning)

    def _chat_body(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> dict[str, Any]:
        """Sampling settings, then ``extra_body`` (which may override them), then what the parsing relies on."""
        body: dict[str, Any] = {**self._sampling, **self._extra_body}
        body.update(model=self._model, messages=self._wire(messages), stream=self._stream)
        if self._stream:
            body["stream_options"] = {"include_usage": True}
        if tools:
            body.update(tools=[tool.as_openai() for tool in tools], tool_choice="auto")  # vLLM's gpt-oss: auto only
        return body

    def _client(self) -> httpx.AsyncClient:
        if self._tls is None:
            self._tls = httpx.create_ssl_context()  # about 50 ms: once per backend, not per call
        return httpx.AsyncClient(
            base_url=self._base_url,
            headers=self._headers,
            timeout=self._timeout,
            transport=self._transport,
            verify=self._tls,
        )

    async def _retrying(
        self,
        path: str,
        attempt: Callable[[httpx.AsyncClient], Awaitable[T]],
        may_retry: Callable[[], bool] = lambda: True,
    ) -> T:
        """Run ``attempt`` until it succeeds, fails for good, or transient failures use up the retries."""
        where = f"POST {self._base_url}{path}"
        async with self._client() as client:
            try:
                retry = replace(self._retry, may_retry=lambda _: may_retry())
                return await retry.call_async(lambda: attempt(client))
            except InferenceUnavailable as failure:
                if not may_retry():
                    raise InferenceUnavailable(
                        f"{where}: {failure}; not retried, because part of the reply was already streamed"
                    ) from failure
                attempts = self._retry.attempts
                raise InferenceUnavailable(f"{where}: {failure} (gave up after {attempts} attempts)") from failure
            except InferenceError as failure:
                raise InferenceError(f"{where}: {failure}") from failure

    async def _post_once(
        self, client: httpx.AsyncClient, path: str, body: dict[str, Any], missing_ok: bool = False
    ) -> Any:
        try:
            response = await client.post(path, json=body)
        except httpx.TransportError as error:
            raise InferenceUnavailable(_describe(error)) from error
        if missing_ok and response.status_code == 404:
            return None
        _check_status(response.status_code, response.text)
        try:
            return response.json()
        except ValueError:
            raise InferenceError(f"HTTP 200 with a body that is not JSON: {response.text[:200]!r}") from None

    async def _stream_once(
        self, client: httpx.AsyncClient, body: dict[str, Any], assembler: StreamAssembler
    ) -> ModelTurn:
        try:
            async with client.stream("POST", CHAT_PATH, json=body) as response:
                if response.status_code >= 400:
                    await response.aread()
                    _check_status(response.status_code, response.text)
                async for line in response.aiter_lines():
                    assembler.feed_line(line)
                    if assembler.done:
                        break
        except httpx.TransportError as error:
            if not assembler.complete:
                raise InferenceUnavailable(f"the stream broke before [DONE]: {_describe(error)}") from error
        if assembler.stray:
            raise InferenceError(f"HTTP 200 with a body that is not JSON events: {assembler.stray!r}")
        if not assembler.complete:
            raise InferenceUnavailable("the stream ended before [DONE] and before any finish_reason")
        return assembler.turn()


class _Relay:
    """Passes content pieces on to the caller's ``on_delta`` and counts what it delivered."""

    def __init__(self, on_delta: DeltaCallback) -> None:
        self._on_delta, self.chars = on_delta, 0

    def __call__(self, text: str) -> None:
        self.chars += len(text)
        self._on_delta(text)


class _BorrowedTransport(httpx.AsyncBaseTransport):
    """Lends a caller's transport to the per-call clients without letting them close it."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self._inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self._inner.handle_async_request(request)


def _check_status(status: int, body: str) -> None:
    if status < 400:
        return
    detail = f"HTTP {status}: {error_message(body)}"
    if status >= 500 or status == 429:
        raise InferenceUnavailable(detail)
    raise InferenceError(f"the server refused the request ({detail})")


def _describe(error: httpx.TransportError) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
