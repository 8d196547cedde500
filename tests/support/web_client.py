"""A logged-in browser as the web sees it (cookies, CSRF, Origin) and its run socket, which reopens with
``?after=`` when closed, as the run page does: for tests that break a server under a running run."""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from research.models import Corpus, Run, RunEvent
from tests.research.runs.conftest import QUESTION
from tests.support import processes


@dataclass(frozen=True)
class Browser:
    """What a logged-in browser sends to the web: its session cookie, a CSRF cookie and token, its Origin."""

    base: str
    session: str
    csrf: str = field(default_factory=lambda: secrets.token_hex(16))

    def headers(self) -> dict[str, str]:
        cookie = f"sessionid={self.session}; csrftoken={self.csrf}"
        return {"Cookie": cookie, "X-CSRFToken": self.csrf, "Origin": self.base}

    def request(
        self, path: str, *, body: bytes | None = None, content_type: str = "", htmx: bool = False
    ) -> tuple[int, str]:
        headers = {**self.headers(), **({"HX-Request": "true"} if htmx else {})}
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def upload(self, slug: str, corpus: Corpus, files: dict[str, bytes]) -> None:
        boundary = secrets.token_hex(12)
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="upload"; filename="{name}"\r\n'
            f"Content-Type: text/plain\r\n\r\n".encode()
            + data
            + b"\r\n"
            for name, data in files.items()
        ]
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        status, page = self.request(
            f"/w/{slug}/c/{corpus.slug}/uploads/",
            body=body,
            content_type=f"multipart/form-data; boundary={boundary}",
            htmx=True,  # answered with the page's part, not a redirect
        )
        assert status == 200, (status, page[-2000:])

    def start_run(self, slug: str, corpus: Corpus) -> int:
        form = {"question": QUESTION, "corpora": corpus.pk, "template": "question", "rollouts": 2}
        form |= {"budget": 32_768, "max_turns": 8}
        status, answer = self.request(
            f"/w/{slug}/runs/start/",
            body=urllib.parse.urlencode(form).encode(),
            content_type="application/x-www-form-urlencoded",
        )
        assert status == 201, (status, answer[-2000:])
        return int(json.loads(answer)["id"])


@dataclass(frozen=True)
class Frame:
    """One message the socket received, and when (this machine's clock, as the worker's ``at`` is)."""

    message: dict[str, Any]
    received: float

    @property
    def seq(self) -> int:
        return int(self.message["seq"])

    @property
    def stored(self) -> float:
        return datetime.fromisoformat(self.message["at"]).timestamp()

    @property
    def lag(self) -> float:
        """Seconds from the event being stored to the browser receiving it."""
        return self.received - self.stored


class RunSocket:
    """A browser's run socket, in a thread of its own: every frame kept; when it is closed, it is opened again
    with ``?after=<last seq received>``, as the run page does (static/js/run.js)."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url, self.headers = url, headers
        self.frames: list[Frame] = []
        self.opened = 0
        self.closes: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._follow()), daemon=True)

    def seqs(self) -> list[int]:
        return [frame.seq for frame in list(self.frames)]

    def count(self, kind: str) -> int:
        return sum(frame.message["type"] == kind for frame in list(self.frames))

    async def _follow(self) -> None:
        while not self._stop.is_set():
            after = self.frames[-1].seq if self.frames else 0
            try:
                async with websockets.connect(
                    f"{self.url}?after={after}", additional_headers=self.headers, open_timeout=10
                ) as socket:
                    self.opened += 1
                    await self._receive(socket)
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError) as error:
                self.closes.append(f"{type(error).__name__}: {error}")
                await asyncio.sleep(0.5)

    async def _receive(self, socket: Any) -> None:
        while not self._stop.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), timeout=0.2)  # cancelling recv loses nothing
            except TimeoutError:
                continue
            self.frames.append(Frame(json.loads(text), time.time()))

    @contextmanager
    def open(self) -> Iterator[RunSocket]:
        self._thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            self._thread.join(timeout=10)


def run_socket_url(stack: processes.WebAndWorker, run_id: int) -> str:
    return stack.base.replace("http://", "ws://") + f"/ws/runs/{run_id}/"


def follow_to_the_end(socket: RunSocket, run_id: int, stack: processes.WebAndWorker) -> Run:
    """Wait until the run has ended and its socket has received its last event (bounded)."""
    ended = lambda: Run.objects.get(pk=run_id).done  # noqa: E731
    processes.wait_for(ended, timeout=120, what=f"run {run_id}", process=stack.worker, log=stack.logs["worker"])
    run = Run.objects.get(pk=run_id)
    # Bounded by the socket's database check (5 s) should a last live message have been lost.
    received = lambda: max(socket.seqs(), default=0) >= run.last_seq  # noqa: E731
    processes.wait_for(received, timeout=20, what=f"run {run_id}'s last event", log=stack.logs["web"])
    return run


def stored_exactly_once(run: Run) -> list[RunEvent]:
    """The run's stored events, asserted numbered 1..last_seq without gaps or repeats."""
    events = list(RunEvent.objects.filter(run=run).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, run.last_seq + 1)), "stored events have gaps or repeats"
    return events
