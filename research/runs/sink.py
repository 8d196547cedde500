"""The worker's event sink: store each harness event with the run's next seq, then publish it; keep the lease.

``emit`` is called on the harness's event loop, where database calls are not allowed, so it only
queues. One writer thread per run drains the queue in batches: each batch is stored in one
transaction guarded by the lease (``journal.events_store``), which also renews it, and only then
published. Between batches the same thread renews the lease and polls ``cancel_requested`` about
once a second; ``cancelled`` (the harness's callback) only reads a flag.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import DatabaseError, connection
from django.utils import timezone

from research.harness.events import Event, TurnRecorded, to_dict
from research.models import Run
from research.realtime import Publisher
from research.runs.journal import StoredEvent, events_store
from research.runs.lease import Claim, heartbeat_seconds, lease_length

logger = logging.getLogger(__name__)

MAX_BATCH = 200
DB_RETRIES = (0.5, 1.0, 2.0)  # seconds before each retry of a failed database write

# SQLite has one writer at a time and a busy handler that sleeps (1, 2, 5, 10, ... ms) while another
# connection writes, so concurrent runs' writer threads would wait far longer than their writes
# take. In one process they take turns on this lock instead; PostgreSQL locks per run row.
_SQLITE_WRITES = threading.Lock()


def _writing() -> contextlib.AbstractContextManager[object]:
    return _SQLITE_WRITES if connection.vendor == "sqlite" else contextlib.nullcontext()


Item = tuple[str, dict[str, Any]]
T = TypeVar("T")


class JournalError(RuntimeError):
    """The run's events could not be stored (the database kept failing)."""


class JournalSink:
    """``EventSink`` for a claimed run: ``start`` it, hand it to the harness, ``close`` it to flush."""

    def __init__(self, claim: Claim, *, tick: float | None = None) -> None:
        self.claim = claim
        self.tick = heartbeat_seconds() if tick is None else tick
        self.tokens = 0  # prompt + completion tokens of the model calls so far
        self.lost = threading.Event()  # the lease went to another attempt: stop, write nothing more
        self.error: BaseException | None = None
        self._cancel = threading.Event()
        self._queue: queue.SimpleQueue[Item | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=f"run-{claim.run_id}-journal", daemon=True)

    def start(self) -> JournalSink:
        self._thread.start()
        return self

    # --- the harness's side ------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        if isinstance(event, TurnRecorded):
            self.tokens += event.prompt_tokens + event.completion_tokens
        self.record(event.type, to_dict(event))

    def record(self, kind: str, payload: dict[str, Any]) -> None:
        self._queue.put((kind, payload))

    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def close(self, timeout: float = 60.0) -> None:
        """Flush what is queued and stop the writer; raises JournalError if events could not be stored."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)
        if self._thread.is_alive():
            raise JournalError(f"run {self.claim.run_id}: the event writer did not finish within {timeout:.0f}s")
        if self.error is not None:
            raise JournalError(f"run {self.claim.run_id}: could not store events: {self.error}") from self.error

    # --- the writer thread ---------------------------------------------------------------------
    def _run(self) -> None:
        publisher = Publisher()
        try:
            self._heartbeat()
            next_beat, done = time.monotonic() + self.tick, False
            while not done:
                batch, done = self._take(timeout=max(0.0, next_beat - time.monotonic()))
                if batch:
                    self._write(batch, publisher)
                if time.monotonic() >= next_beat:
                    self._heartbeat()
                    next_beat = time.monotonic() + self.tick
        except Exception as error:
            logger.exception("run %s: the event writer failed", self.claim.run_id)
            self.error = error
            self._cancel.set()
        finally:
            publisher.close()
            connection.close()

    def _take(self, *, timeout: float) -> tuple[list[Item], bool]:
        """The next batch (waiting up to ``timeout`` for its first item), and whether the end was reached."""
        batch: list[Item] = []
        try:
            item = self._queue.get(timeout=timeout)
            while item is not None:
                batch.append(item)
                if len(batch) >= MAX_BATCH:
                    return batch, False
                item = self._queue.get_nowait()
            return batch, True
        except queue.Empty:
            return batch, False

    def _write(self, batch: list[Item], publisher: Publisher) -> None:
        if self.lost.is_set():
            return
        claim = self.claim

        def store() -> list[StoredEvent] | None:
            until = timezone.now() + lease_length()
            with _writing():
                return events_store(run_id=claim.run_id, items=batch, attempt=claim.attempt, guard=claim.guard,
                                    claimed_until=until)  # fmt: skip

        events = _retrying(store)
        if events is None:
            self._lose()
            return
        self._publish(events, publisher)

    def _publish(self, events: list[StoredEvent], publisher: Publisher) -> None:
        try:
            publisher.run_events(self.claim.run_id, [event.message() for event in events])
        except Exception:  # the events are stored: sockets catch up from the database
            logger.warning("run %s: publishing %s events failed", self.claim.run_id, len(events), exc_info=True)

    def _heartbeat(self) -> None:
        """Renew the lease (and record the tokens so far); notice a cancel request or a lost lease."""
        claim = self.claim

        def beat() -> tuple[int, bool]:
            with _writing():
                renewed = Run.objects.filter(claim.guard, pk=claim.run_id).update(
                    claimed_until=timezone.now() + lease_length(), total_tokens=self.tokens
                )
            wanted = Run.objects.filter(pk=claim.run_id).values_list("cancel_requested", flat=True).first()
            return renewed, bool(wanted)

        renewed, cancel = _retrying(beat)
        if renewed != 1:
            self._lose()
        elif cancel:
            self._cancel.set()

    def _lose(self) -> None:
        if not self.lost.is_set():
            logger.warning("run %s: attempt %s lost its lease; stopping", self.claim.run_id, self.claim.attempt)
        self.lost.set()
        self._cancel.set()


def _retrying(operation: Callable[[], T]) -> T:
    """Run a database operation, retrying a few times (with a fresh connection) when the database fails."""
    for delay in DB_RETRIES:
        try:
            return operation()
        except DatabaseError as error:
            logger.warning("database error, retrying in %.1fs: %s", delay, error)
            connection.close()
            time.sleep(delay)
    return operation()
