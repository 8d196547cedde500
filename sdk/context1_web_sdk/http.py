"""The two transports (``Client`` on httpx's sync client, ``AsyncClient`` on its async one) with one surface: JSON
requests with the token, retries with backoff, typed errors, and the run's event stream resumed after a drop.

Retried: a connection that fails or times out, and answers 408, 429 and 5xx (``Retry-After`` is honoured, at most
``MAX_WAIT`` seconds), up to ``max_retries`` times. A run's start is retried too: it carries an ``Idempotency-Key``,
so the server returns the same run, never a second one. A 409 is not retried: it says the request itself conflicts.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx

from context1_web_sdk.errors import Context1Error, ServerError, error_for
from context1_web_sdk.models import Event

RETRIED = frozenset({408, 429, 500, 502, 503, 504})
MAX_WAIT = 60.0
USER_AGENT = "context1-web-sdk"


def settings_from_env(base_url: str | None, api_key: str | None) -> tuple[str, str]:
    base_url = base_url or os.environ.get("CONTEXT1_BASE_URL") or "http://127.0.0.1:8000"
    api_key = api_key or os.environ.get("CONTEXT1_API_KEY") or ""
    if not api_key:
        raise Context1Error(
            "No API key: pass api_key= or set CONTEXT1_API_KEY (a token from Your account -> API tokens)."
        )
    return base_url.rstrip("/"), api_key


def _wait(attempt: int, response: httpx.Response | None) -> float:
    if response is not None and (header := response.headers.get("Retry-After", "")).isdigit():
        return min(MAX_WAIT, float(header))
    backoff: float = 0.5 * 2.0**attempt + random.uniform(0, 0.25)  # noqa: S311 (jitter, not a secret)
    return min(MAX_WAIT, backoff)


def _problem(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {"detail": response.text[:500] or f"HTTP {response.status_code}"}
    return body if isinstance(body, dict) else {"detail": str(body)}


def _outcome(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        raise error_for(response.status_code, _problem(response))
    return response.json() if response.content else None


class _Frames:
    """Server-sent events read line by line: ``feed`` returns (its id, the event) at each blank line that ends one;
    comment lines (heartbeats) are skipped; ``ended`` turns true at the server's ``end`` frame, which follows the
    run's last event (a stream that stops without it was dropped, and is resumed)."""

    def __init__(self) -> None:
        self.seq, self.name, self.ended = 0, "", False
        self.data: list[str] = []

    def feed(self, line: str) -> tuple[int, Event] | None:
        if line.startswith("id:"):
            self.seq = int(line[3:].strip())
        elif line.startswith("event:"):
            self.name = line[6:].strip()
        elif line.startswith("data:"):
            self.data.append(line[5:].strip())
        elif line == "" and self.data:
            data, name, self.data, self.name = "\n".join(self.data), self.name, [], ""
            if name == "end":
                self.ended = True
                return None
            return self.seq, Event(**json.loads(data))
        return None


class _Dropped(httpx.TransportError):
    """The event stream stopped before the server's ``end`` frame."""


class Client:
    """Synchronous transport (``transport``: httpx's, e.g. a mock in tests)."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url, api_key = settings_from_env(base_url, api_key)
        headers = {"Authorization": f"Bearer {api_key}", "User-Agent": USER_AGENT}
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout, transport=transport)
        self.max_retries = max_retries

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def request(self, method: str, path: str, **options: Any) -> Any:
        for attempt in range(self.max_retries + 1):
            try:
                response = self._http.request(method, f"/api/v1{path}", **options)
            except httpx.TransportError as error:
                if attempt == self.max_retries:
                    raise ServerError(f"no answer from {self.base_url}: {error}") from error
                time.sleep(_wait(attempt, None))
                continue
            if response.status_code in RETRIED and attempt < self.max_retries:
                time.sleep(_wait(attempt, response))
                continue
            return _outcome(response)
        raise AssertionError("unreachable")

    def events(self, run_id: int, *, after: int = 0) -> Iterator[Event]:
        """The run's events after ``after``, until its last; a dropped connection is resumed where it stopped."""
        failures = 0
        while True:
            try:
                headers = {"Last-Event-ID": str(after)}
                with self._http.stream(
                    "GET", f"/api/v1/runs/{run_id}/events", headers=headers, timeout=None
                ) as response:
                    if response.status_code >= 400:
                        response.read()
                        _outcome(response)
                    frames = _Frames()
                    for line in response.iter_lines():
                        if (framed := frames.feed(line)) is not None:
                            after, failures = framed[0], 0
                            yield framed[1]
                    if not frames.ended:
                        raise _Dropped("the event stream stopped before its end")
                return
            except httpx.TransportError:
                failures += 1
                if failures > self.max_retries:
                    raise
                time.sleep(_wait(failures - 1, None))


class AsyncClient:
    """Asynchronous transport, the same surface as ``Client``."""

    def __init__(
        self, *, base_url: str | None = None, api_key: str | None = None, timeout: float = 30.0, max_retries: int = 3
    ) -> None:
        self.base_url, api_key = settings_from_env(base_url, api_key)
        headers = {"Authorization": f"Bearer {api_key}", "User-Agent": USER_AGENT}
        self._http = httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout)
        self.max_retries = max_retries

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def request(self, method: str, path: str, **options: Any) -> Any:
        for attempt in range(self.max_retries + 1):
            try:
                response = await self._http.request(method, f"/api/v1{path}", **options)
            except httpx.TransportError as error:
                if attempt == self.max_retries:
                    raise ServerError(f"no answer from {self.base_url}: {error}") from error
                await asyncio.sleep(_wait(attempt, None))
                continue
            if response.status_code in RETRIED and attempt < self.max_retries:
                await asyncio.sleep(_wait(attempt, response))
                continue
            return _outcome(response)
        raise AssertionError("unreachable")

    async def events(self, run_id: int, *, after: int = 0) -> AsyncIterator[Event]:
        failures = 0
        while True:
            try:
                headers = {"Last-Event-ID": str(after)}
                async with self._http.stream(
                    "GET", f"/api/v1/runs/{run_id}/events", headers=headers, timeout=None
                ) as response:
                    if response.status_code >= 400:
                        await response.aread()
                        _outcome(response)
                    frames = _Frames()
                    async for line in response.aiter_lines():
                        if (framed := frames.feed(line)) is not None:
                            after, failures = framed[0], 0
                            yield framed[1]
                    if not frames.ended:
                        raise _Dropped("the event stream stopped before its end")
                return
            except httpx.TransportError:
                failures += 1
                if failures > self.max_retries:
                    raise
                await asyncio.sleep(_wait(failures - 1, None))
