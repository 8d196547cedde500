"""The worker's event sink: store each harness event with the run's next seq, then publish it; keep the lease.

``emit`` is called on the harness's event loop, where database calls are not allowed, so it only
queues. One writer thread per worker process serves every run the process executes: each round it
takes everything queued, stores every run's events in one transaction, each guarded by (and
renewing) its run's lease (``journal.events_store_leased``), and only after the commit publishes each
run's batch as one channel-layer message; rounds start at least ``ROUND_SECONDS`` apart. About once a
second it renews the leases of every run it serves and reads their ``cancel_requested``;
``cancelled`` (the harness's callback) only reads a flag. One thread, one connection and one event
loop per process, however many runs: under load the rounds grow, rather than the number of commits
and Redis round trips.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time

from django.db import DatabaseError, connection, transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from research.models import Run
from research.platform.realtime import LiveProgress, Publisher
from research.protocol.events import AnyEvent, Event, TurnRecorded
from research.protocol.retry import Retry
from research.runs.journal import Held, LeasedBatch, StoredEvent, events_store_leased, leases_held
from research.runs.lease import Claim, heartbeat_seconds, lease_length

logger = logging.getLogger(__name__)

MAX_ROUND = 2_000  # queued items one round takes at most
# Rounds start at least this far apart: an event arriving after a quiet spell is written at once, and
# under load a round gathers what arrived since the last one (a commit costs about the same for one
# event as for a hundred), so the writer keeps up instead of falling behind one event a commit.
ROUND_SECONDS = 0.02
DB_RETRIES = (0.5, 1.0, 2.0)  # seconds before each retry of a failed database write

Entry = tuple["JournalSink", AnyEvent | threading.Event]  # an event to store, or a flush marker


class JournalError(RuntimeError):
    """The run's events could not be stored (the database kept failing)."""


class JournalSink:
    """``EventSink`` for a claimed run: ``start`` it, hand it to the harness, ``close`` it to flush."""

    def __init__(self, claim: Claim) -> None:
        self.claim = claim
        self.tokens = 0  # prompt + completion tokens of the model calls so far
        self.lost = threading.Event()  # the lease went to another attempt: stop, write nothing more
        self.error: BaseException | None = None
        self._cancel = threading.Event()
        self._cancel_reason = ""

    def writer(self) -> JournalWriter:
        """The writer thread that stores this sink's events: this process's."""
        return journal_writer()

    def start(self) -> JournalSink:
        """Register with the writer (and notice a cancel requested before the claim)."""
        requested = Run.objects.filter(pk=self.claim.run_id, cancel_requested=True).values_list("cancel_reason")
        for (reason,) in requested:
            self.request_cancel(reason)
        self.writer().register(self)
        return self

    # --- the harness's side ------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        if isinstance(event, TurnRecorded):
            self.tokens += event.prompt_tokens + event.completion_tokens
        self.record(event)

    def record(self, event: AnyEvent) -> None:
        """Queue any run event (the harness's through ``emit``, or one the worker adds, like a failure)."""
        self.writer().submit(self, event)

    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel_reason(self) -> str:
        """Why the run is stopping: the member's reason, else what stopped it."""
        return self._cancel_reason or ("its worker lost the run" if self.lost.is_set() else "cancelled")

    def close(self, timeout: float = 60.0) -> None:
        """Wait until everything recorded is stored and published; raises JournalError if it could not be."""
        writer = self.writer()
        writer.unregister(self)  # first: the writer lets its connection go as soon as it has no run left
        if not writer.flush(self, timeout):
            raise JournalError(f"run {self.claim.run_id}: events not stored within {timeout:.0f}s")
        if self.error is not None:
            raise JournalError(f"run {self.claim.run_id}: could not store events: {self.error}") from self.error

    # --- the writer's side -----------------------------------------------------------------------
    def lose(self) -> None:
        if not self.lost.is_set():
            logger.warning("run %s: attempt %s lost its lease; stopping", self.claim.run_id, self.claim.attempt)
        self.lost.set()
        self._cancel.set()

    def fail(self, error: BaseException) -> None:
        self.error = error
        self._cancel.set()

    def request_cancel(self, reason: str) -> None:
        self._cancel_reason = reason
        self._cancel.set()


class JournalWriter:
    """The process's writer thread (see the module docstring); use ``journal_writer()``."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Entry] = queue.SimpleQueue()
        self._sinks: set[JournalSink] = set()
        self._lock = threading.Lock()
        # Every round tries (no quiet spell): once Redis is back, the next round's events are live again.
        self._live = LiveProgress(
            goes_on="runs go on and their events are stored; run pages show them", logger=logger, quiet_s=0.0
        )
        self._thread = threading.Thread(target=self._run, name="run-journal", daemon=True)
        self._thread.start()

    def register(self, sink: JournalSink) -> None:
        with self._lock:
            self._sinks.add(sink)

    def unregister(self, sink: JournalSink) -> None:
        with self._lock:
            self._sinks.discard(sink)

    def submit(self, sink: JournalSink, event: AnyEvent) -> None:
        self._queue.put((sink, event))

    def flush(self, sink: JournalSink, timeout: float) -> bool:
        """True once everything ``sink`` submitted before this call went through a round."""
        done = threading.Event()
        self._queue.put((sink, done))
        return done.wait(timeout)

    def _run(self) -> None:
        publisher = Publisher()
        next_beat = last_round = time.monotonic()
        while True:
            time.sleep(max(0.0, last_round + ROUND_SECONDS - time.monotonic()))
            entries = self._take(timeout=max(0.0, next_beat - time.monotonic()))
            try:
                if entries:
                    last_round = time.monotonic()
                    self._round(entries, publisher)
                if time.monotonic() >= next_beat:
                    self._heartbeat()
                    next_beat = time.monotonic() + heartbeat_seconds()
            except Exception:  # a bug: the thread must survive it (the sinks concerned were failed)
                logger.exception("the run journal writer failed a round")
            finally:
                for _, item in entries:
                    if isinstance(item, threading.Event):
                        item.set()
            if not self._sinks and self._queue.empty():
                connection.close()  # idle: hold no database connection

    def _take(self, *, timeout: float) -> list[Entry]:
        entries = []
        try:
            entries.append(self._queue.get(timeout=timeout))
            while len(entries) < MAX_ROUND:
                entries.append(self._queue.get_nowait())
        except queue.Empty:
            pass
        return entries

    def _round(self, entries: list[Entry], publisher: Publisher) -> None:
        batches: dict[JournalSink, list[AnyEvent]] = {}
        for sink, item in entries:
            if not isinstance(item, threading.Event) and not sink.lost.is_set():
                batches.setdefault(sink, []).append(item)
        if not batches:
            return
        try:
            stored = self.store(batches)
        except Exception as error:
            logger.exception("storing the events of runs %s failed", sorted(s.claim.run_id for s in batches))
            for sink in batches:
                sink.fail(error)
            return
        # The events are stored: sockets catch up from the database (RunConsumer's replay and tail check).
        messages = [(run_id, [event.message() for event in events]) for run_id, events in stored]
        self._live.push(lambda: publisher.run_events_many(messages))

    def _heartbeat(self) -> None:
        """Renew every registered run's lease (and record its tokens); notice cancels and lost leases."""
        with self._lock:
            sinks = list(self._sinks)
        if not sinks:
            return

        def beat() -> dict[int, Held]:
            with transaction.atomic():
                held = leases_held({sink.claim.run_id: sink.claim.owner for sink in sinks})
                tokens = [When(pk=s.claim.run_id, then=Value(s.tokens)) for s in sinks if s.claim.run_id in held]
                if tokens:
                    Run.objects.filter(pk__in=held).update(
                        claimed_until=timezone.now() + lease_length(), total_tokens=Case(*tokens)
                    )
            return held

        held = DB_RETRY.call(beat)
        for sink in sinks:
            if sink.claim.run_id not in held:
                sink.lose()
            elif held[sink.claim.run_id].cancel_requested:
                sink.request_cancel(held[sink.claim.run_id].cancel_reason)

    def store(self, batches: dict[JournalSink, list[AnyEvent]]) -> list[tuple[int, list[StoredEvent]]]:
        """Every run's batch in one transaction; sinks whose run's lease is gone are marked lost."""
        leased = [LeasedBatch(s.claim.run_id, s.claim.owner, s.claim.attempt, events) for s, events in batches.items()]
        stored = DB_RETRY.call(lambda: events_store_leased(leased, claimed_until=timezone.now() + lease_length()))
        for sink in batches:
            if sink.claim.run_id not in stored:
                sink.lose()
        return list(stored.items())


_writer: tuple[int, JournalWriter] | None = None
_writer_lock = threading.Lock()


def journal_writer() -> JournalWriter:
    """This process's writer, started on first use (again in a forked child: threads do not survive a fork)."""
    global _writer  # noqa: PLW0603
    with _writer_lock:
        if _writer is None or _writer[0] != os.getpid():
            _writer = (os.getpid(), JournalWriter())
        return _writer[1]


def _reconnect(error: BaseException, delay: float) -> None:
    logger.warning("database error, retrying in %.1fs: %s", delay, error)
    connection.close()  # the next attempt opens a fresh connection


# A database write that fails is retried a few times, each on a fresh connection.
DB_RETRY = Retry(on=DatabaseError, delays=DB_RETRIES, before_retry=_reconnect)
