"""The run socket: one run's stored events after ``?after=N``, then live ones, for members of its workspace."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from functools import partial
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.db import DatabaseError

from research.platform.access import GuardedConsumer
from research.platform.realtime import CLOSE_FORBIDDEN, run_group
from research.runs import selectors
from research.runs.journal import StoredEvent
from research.runs.live.fragments import Renderer, renderer

logger = logging.getLogger(__name__)


def _query(scope: dict[str, Any]) -> dict[str, str]:
    raw = scope.get("query_string", b"").decode("latin-1")
    return {key: values[-1] for key, values in parse_qs(raw).items()}


def _after(value: str | None) -> int:
    try:
        return max(0, int(value or 0))
    except ValueError:
        return 0


class RunConsumer(GuardedConsumer):
    """One run's events, for members of its workspace: every stored event after ``?after=N``, then live ones.

    No gap and no duplicate between replay and live: the socket joins the run's group *before* reading
    the database, so an event committed after the read is also published after the join. Live messages
    that arrive during the replay wait in the channel layer's queue for this socket (handlers run one
    at a time) and are handled after it; any with ``seq`` at or below the last sent one are dropped. A
    live message that skips ahead (the channel layer dropped some: it delivers at most once) makes the
    socket read the missing ones from the database first: a committed ``seq`` implies all lower ones
    are committed (research/runs/journal.py). Every ``tail_check_seconds`` the socket also compares
    with the run's latest ``seq``, so a dropped *last* message is caught up too; a check that finds the
    database away (restarting, a network cut) is simply made again next time.
    ``?format=json`` (default) sends ``{"seq", "type", "payload", "attempt", "at"}``; ``?format=html``
    sends the page's fragments (research/runs/live/fragments.py).
    Access is checked again before sending and on revocations (research/platform/access.py): a member who
    is removed or logs out stops receiving, and the socket closes with 4403.
    """

    replay_page = selectors.EVENTS_PAGE
    tail_check_seconds = 5.0
    run_id: int | None = None
    last_seq = 0

    async def connect(self) -> None:
        user = self.scope.get("user")
        run_id = int(self.scope["url_route"]["kwargs"]["run_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        run = await database_sync_to_async(selectors.run_find_for_user)(user_id=user.pk, run_id=run_id)
        if run is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        query = _query(self.scope)
        self.run_id, self.last_seq = run.pk, _after(query.get("after"))
        seed = partial(selectors.run_events_all, run_id=run.pk, through=self.last_seq)
        self.render: Renderer = await database_sync_to_async(renderer)(query.get("format"), seed, run_id=run.pk)
        self.lock = asyncio.Lock()
        await self.guard(user, partial(_may_read, run.pk))
        await self.channel_layer.group_add(run_group(run.pk), self.channel_name)  # subscribe first ...
        await self.accept()
        await self.catch_up()  # ... then replay what is stored
        self.watcher = asyncio.create_task(self._watch())

    async def disconnect(self, code: int) -> None:
        if self.run_id is None:
            return
        watcher = getattr(self, "watcher", None)
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        await self.channel_layer.group_discard(run_group(self.run_id), self.channel_name)
        await self.unguard()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data='{"type":"error","detail":"this socket does not accept messages"}')

    async def run_events(self, event: dict[str, Any]) -> None:
        """A batch of live events (research.platform.realtime.run_events_message), in seq order."""
        async with self.lock:
            if not await self.may_send():
                return
            for message in event["events"]:
                seq = int(message["seq"])
                if seq <= self.last_seq:
                    continue  # already sent (replayed, or caught up from the database)
                if seq > self.last_seq + 1:
                    await self._replay()  # fill the gap from the database
                if seq > self.last_seq:
                    await self._send(StoredEvent.from_message(message))

    async def catch_up(self) -> None:
        async with self.lock:
            if await self.may_send():
                await self._replay()

    async def _replay(self) -> None:
        assert self.run_id is not None
        while True:
            events = await database_sync_to_async(selectors.run_events_after)(
                run_id=self.run_id, after=self.last_seq, limit=self.replay_page
            )
            for event in events:
                await self._send(event)
            if len(events) < self.replay_page:
                return

    async def _send(self, event: StoredEvent) -> None:
        await self.send(text_data=self.render(event))
        self.last_seq = event.seq

    async def _watch(self) -> None:
        assert self.run_id is not None
        while True:
            await asyncio.sleep(self.tail_check_seconds)
            try:
                if not await self._check():
                    return
            except DatabaseError as error:
                # The database is away (restarting, a network cut): the socket stays open and checks again next
                # time. Without this the watcher would end on the error, leaving the socket without its check
                # for the rest of its life and its disconnect failing on the error (never leaving its groups).
                logger.warning(
                    "run %s socket: database check failed, again in %.0fs: %s",
                    self.run_id,
                    self.tail_check_seconds,
                    error,
                )

    async def _check(self) -> bool:
        """One check of the watcher: catch up with the stored events; False once there is nothing left to watch."""
        assert self.run_id is not None
        if not await self.may_send():
            return False  # access ended while nothing was sent: closed within the re-check bound
        latest, ended = await database_sync_to_async(selectors.run_progress)(run_id=self.run_id)
        if latest > self.last_seq:
            await self.catch_up()
            return True
        return not ended


def _may_read(run_id: int, user_id: int) -> bool:
    return selectors.run_find_for_user(user_id=user_id, run_id=run_id) is not None
