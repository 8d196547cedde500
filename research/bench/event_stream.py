"""The worker side of ``manage.py bench_events``: a claimed run streams synthetic harness events through a sink.

``durable=True`` uses the product's ``JournalSink`` (store with the next seq, then publish);
``durable=False`` is the named baseline, ``DirectSink``: the same writer thread, batching and
publisher, but the events are numbered in memory and published without the database write. Each
event carries the wall-clock time it entered the sink in its ``call_id`` (``<n>:<unix seconds>``),
so the client measures sink-to-socket latency across processes on one machine.
"""

from __future__ import annotations

import time

from django.utils import timezone

from research.models import RunStatus
from research.protocol.events import ChunkRef, Event, ToolCalled, ToolReturned
from research.runs.execution import Outcome, run_complete
from research.runs.journal import StoredEvent
from research.runs.lease import run_claim
from research.runs.sink import Item, JournalSink

BASELINE = "direct channel-layer publish from the worker's sink (no database write, seq numbered in memory)"


class DirectSink(JournalSink):
    """The baseline: ``JournalSink`` without the database write (nothing is durable, nothing is replayable)."""

    durable = False
    _seq = 0

    def number(self, items: list[Item]) -> list[StoredEvent]:
        now = timezone.now()
        events = []
        for kind, payload in items:
            self._seq += 1
            events.append(StoredEvent(self._seq, kind, payload, self.claim.attempt, now))
        return events


def synthetic_event(n: int, sent_at: float) -> Event:
    """Alternately a sub-query and its ten ranked chunks: the two commonest events of a real run."""
    call_id = f"{n}:{sent_at:.6f}"
    if n % 2:
        query = "Globex pricing changes since June"
        return ToolCalled(rollout=n % 4, turn=n // 8 + 1, call_id=call_id, tool="search_corpus", query=query,
                          arguments=f'{{"query": "{query}"}}')  # fmt: skip
    chunks = tuple(
        ChunkRef(chunk_id=f"doc{n % 97}-{i}#0", doc_id=f"doc{n % 97}-{i}", title=f"Globex filing {i}", score=0.03)
        for i in range(10)
    )
    return ToolReturned(rollout=n % 4, turn=n // 8 + 1, call_id=call_id, tool="search_corpus", chunks=chunks,
                        tokens=2_900)  # fmt: skip


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
