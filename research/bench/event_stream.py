"""The worker side of ``manage.py bench_events``: a claimed run streams synthetic harness events through a sink.

``durable=True`` uses the product's ``JournalSink`` (store with the next seq, then publish);
``durable=False`` is the named baseline, ``DirectSink``: the same writer thread, batching and
publisher, but the events are numbered in memory and published without the database write. Each
event carries the wall-clock time it entered the sink in its ``call_id`` (``<n>:<unix seconds>``),
so the client measures sink-to-socket latency across processes on one machine.
"""

from __future__ import annotations

import os
import threading
import time

from django.utils import timezone

from research.models import RunStatus
from research.protocol.events import AnyEvent, ChunkRef, Event, ToolCalled, ToolReturned, to_dict
from research.runs.execution import Outcome, run_complete
from research.runs.journal import StoredEvent
from research.runs.lease import run_claim
from research.runs.sink import JournalSink, JournalWriter

BASELINE = "direct channel-layer publish from the worker's sink (no database write, seq numbered in memory)"


class MemoryJournalWriter(JournalWriter):
    """The baseline's writer: the product's writer thread, batching, lease heartbeat and publisher, but each
    run's events are numbered in memory and never stored (nothing is durable, nothing is replayable)."""

    def __init__(self) -> None:
        super().__init__()
        self._seqs: dict[int, int] = {}

    def store(self, batches: dict[JournalSink, list[AnyEvent]]) -> list[tuple[int, list[StoredEvent]]]:
        now, numbered = timezone.now(), []
        for sink, events in batches.items():
            run_id, first = sink.claim.run_id, self._seqs.get(sink.claim.run_id, 0) + 1
            stored = [
                StoredEvent(first + n, event.type, to_dict(event), sink.claim.attempt, now)
                for n, event in enumerate(events)
            ]
            self._seqs[run_id] = first + len(events) - 1
            numbered.append((run_id, stored))
        return numbered


_memory_writer: tuple[int, MemoryJournalWriter] | None = None
_memory_writer_lock = threading.Lock()


class DirectSink(JournalSink):
    """The baseline's sink: the product's ``JournalSink`` handing its events to the in-memory writer."""

    def writer(self) -> JournalWriter:
        global _memory_writer  # noqa: PLW0603 - one writer per process, as the product's
        with _memory_writer_lock:
            if _memory_writer is None or _memory_writer[0] != os.getpid():
                _memory_writer = (os.getpid(), MemoryJournalWriter())
            return _memory_writer[1]


def synthetic_event(n: int, sent_at: float) -> Event:
    """Alternately a sub-query and its ten ranked chunks: the two commonest events of a real run."""
    call_id = f"{n}:{sent_at:.6f}"
    if n % 2:
        query = "Globex pricing changes since June"
        return ToolCalled(
            rollout=n % 4,
            turn=n // 8 + 1,
            call_id=call_id,
            tool="search_corpus",
            query=query,
            arguments=f'{{"query": "{query}"}}',
        )
    chunks = tuple(
        ChunkRef(chunk_id=f"doc{n % 97}-{i}#0", doc_id=f"doc{n % 97}-{i}", title=f"Globex filing {i}", score=0.03)
        for i in range(10)
    )
    return ToolReturned(
        rollout=n % 4, turn=n // 8 + 1, call_id=call_id, tool="search_corpus", chunks=chunks, tokens=2_900
    )


def stream_events(*, run_id: int, events: int, interval_ms: float, durable: bool) -> str:
    """Claim the run, emit ``events`` synthetic events ``interval_ms`` apart, then finish it."""
    claim = run_claim(run_id=run_id)
    if claim is None:
        return "skipped"
    sink = (JournalSink if durable else DirectSink)(claim).start()
    started = time.monotonic()
    for n in range(1, events + 1):
        sink.emit(synthetic_event(n, time.time()))
        time.sleep(max(0.0, started + n * interval_ms / 1000 - time.monotonic()))
    sink.close()
    return run_complete(claim=claim, outcome=Outcome(RunStatus.FINISHED), tokens=0)
