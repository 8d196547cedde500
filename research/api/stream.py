"""A run's events as server-sent events: every stored event after a sequence number, then live ones as the
worker publishes them, in order, each once, to the run's last.

The same rules as the page's socket (research/runs/consumers.py): the stream joins the run's channel-layer
group *before* reading the database, so an event committed after the read is also published after the join;
a live batch whose ``seq`` skips ahead (the layer delivers at most once) is preceded by the missing events read
from the database (a committed ``seq`` implies every lower one is committed); every ``TAIL_CHECK_SECONDS`` the
stream compares with the run's latest ``seq`` and whether it has ended, so a lost *last* message is caught up
too, and whether the token still works (revoked, expired, its user deactivated or removed from the workspace: the
stream stops). A comment line keeps an idle connection open every ``HEARTBEAT_SECONDS``. After the run's last
event comes one ``event: end`` frame (no ``id:``; ``data: {"last_seq": N}``), so a client tells a stream that
ended from a connection that dropped (which it resumes with ``Last-Event-ID``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from research.api.tokens import token_valid
from research.platform.realtime import run_group
from research.runs import selectors
from research.runs.journal import StoredEvent

logger = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 15.0
TAIL_CHECK_SECONDS = 2.0
RETRY_MS = 2000  # how long a browser's EventSource waits before it reconnects
PAGE = selectors.EVENTS_PAGE


def frame(event: StoredEvent) -> str:
    """One event as an SSE frame: ``id:`` its sequence number, ``event:`` its type, ``data:`` the typed event."""
    return f"id: {event.seq}\nevent: {event.type}\ndata: {json.dumps(event.message())}\n\n"


class _Live:
    """The run's live batches, received from the channel layer by a task of their own into a queue (so waiting
    for the next one with a timeout never cancels the layer's receive, which would drop its buffer)."""

    def __init__(self, run_id: int) -> None:
        self.group, self.queue = run_group(run_id), asyncio.Queue[list[dict[str, Any]]]()
        self.layer = get_channel_layer()
        self.channel = ""
        self.task: asyncio.Task[None] | None = None

    async def join(self) -> None:
        if self.layer is None:
            return  # no layer: the stream reads the database on every tail check
        try:
            self.channel = await self.layer.new_channel("sse.")
            await self.layer.group_add(self.group, self.channel)
        except Exception:  # Redis away: the stream goes on from the database, every tail check
            logger.warning("event stream of %s: no channel layer, reading the database only", self.group, exc_info=True)
            self.channel = ""
            return
        self.task = asyncio.create_task(self._receive())

    async def _receive(self) -> None:
        assert self.layer is not None
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("type") == "run.events":
                self.queue.put_nowait(list(message["events"]))

    async def next(self, timeout: float) -> list[dict[str, Any]] | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout=timeout)
        except TimeoutError:
            return None

    async def leave(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # a receive that died of a Redis error
                await self.task
        if self.layer is not None and self.channel:
            with contextlib.suppress(Exception):  # Redis away: the group's membership expires by itself
                await self.layer.group_discard(self.group, self.channel)


class _Tail:
    """Where one stream stands: the last ``seq`` sent, and the stored events after it."""

    def __init__(self, run_id: int, after: int, token_id: int) -> None:
        self.run_id, self.last, self.token_id = run_id, after, token_id

    async def stored(self) -> AsyncIterator[str]:
        while True:
            page = await sync_to_async(selectors.run_events_after)(run_id=self.run_id, after=self.last, limit=PAGE)
            for event in page:
                self.last = event.seq
                yield frame(event)
            if len(page) < PAGE:
                return

    async def live(self, batch: list[dict[str, Any]]) -> AsyncIterator[str]:
        """A live batch's events not sent yet, after any the layer dropped (read from the database)."""
        for message in batch:
            seq = int(message["seq"])
            if seq > self.last + 1:
                async for text in self.stored():
                    yield text
            if seq == self.last + 1:
                self.last = seq
                yield frame(StoredEvent.from_message(message))

    async def check(self) -> tuple[list[str], bool]:
        """The stored events a lost message left behind, and whether the stream stops: after the ``end`` frame once
        the run has ended with all its events sent, or at once when the token no longer works."""
        if not await sync_to_async(token_valid)(token_id=self.token_id):
            return [], True
        latest, ended = await sync_to_async(selectors.run_progress)(run_id=self.run_id)
        missed = [text async for text in self.stored()] if latest > self.last else []
        if ended and self.last >= latest:
            return [*missed, f"event: end\ndata: {json.dumps({'last_seq': self.last})}\n\n"], True
        return missed, False


async def events(run_id: int, after: int, token_id: int) -> AsyncIterator[str]:
    """The SSE frames of run ``run_id`` after ``seq`` ``after``, to its last event and the ``end`` frame; the stream
    stops without it once the token no longer works (checked with the tail), so a client reconnecting gets a 401."""
    live, tail, stop = _Live(run_id), _Tail(run_id, after, token_id), False
    await live.join()
    try:
        yield f"retry: {RETRY_MS}\n\n"  # at once: the server sends the response's headers with its first bytes
        async for text in tail.stored():
            yield text
        quiet_since, checked = time.monotonic(), 0.0  # check at once: a run that has ended ends its stream now
        while True:
            batch = await live.next(timeout=max(0.0, checked + TAIL_CHECK_SECONDS - time.monotonic()))
            sent = [text async for text in tail.live(batch or [])]
            if batch is None or time.monotonic() - checked >= TAIL_CHECK_SECONDS:
                checked = time.monotonic()
                missed, stop = await tail.check()
                sent += missed
            if sent:
                quiet_since = time.monotonic()
                yield "".join(sent)
            elif time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                quiet_since = time.monotonic()
                yield ": still running\n\n"
            if stop:
                return
    finally:
        await live.leave()
