"""The run event journal: events get the run's next sequence numbers and are stored before they are published.

Sequence numbers are allocated by incrementing ``Run.last_seq`` in the same transaction that inserts
the events, and that UPDATE also carries the writer's guard (for a worker: "I still hold the lease").
The UPDATE locks the run row until commit, so writers are serialised per run and a committed event
``seq`` implies every lower one is committed too: a reader that sees ``seq`` can fetch everything
before it from the database. Publishing happens after commit; the channel layer may drop a message,
the database never does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Case, F, Q, Value, When

from research.models import Run, RunEvent, RunStatus
from research.platform.realtime import publish_run_events

# Events the Django side adds to a run's journal besides the harness's own (research/protocol/events.py).
RUN_REQUEUED = "run_requeued"  # the sweeper found the worker gone and put the run back in the queue
RUN_RESTARTED = "run_restarted"  # a new attempt starts from the beginning; earlier attempts' events are superseded
CANCEL_REQUESTED = "cancel_requested"  # a member asked to stop; the run stops at its next turn boundary
RUN_CANCELLED = "run_cancelled"  # same type and payload as the harness's event (a queued run is cancelled here)
RUN_FAILED = "run_failed"  # same type and payload as the harness's event (the sweeper gives up)


@dataclass(frozen=True)
class StoredEvent:
    """A journal entry as sockets and the events endpoint send it."""

    seq: int
    type: str
    payload: dict[str, Any]
    attempt: int
    at: datetime

    def message(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.type, "payload": self.payload, "attempt": self.attempt,
                "at": self.at.isoformat()}  # fmt: skip


def stored(event: RunEvent) -> StoredEvent:
    return StoredEvent(event.seq, event.type, event.payload, event.attempt, event.created_at)


def events_store(
    *, run_id: int, items: Sequence[tuple[str, dict[str, Any]]], attempt: int, guard: Q, **run_fields: Any
) -> list[StoredEvent] | None:
    """Store ``items`` (type, payload) with the run's next sequence numbers, in one transaction, if the run
    matches ``guard``; ``run_fields`` are updated in the same statement. None (nothing stored) otherwise."""
    with transaction.atomic():
        count = len(items)
        updated = Run.objects.filter(guard, pk=run_id).update(last_seq=F("last_seq") + count, **run_fields)
        if updated != 1:
            return None
        if not count:
            return []
        last = Run.objects.filter(pk=run_id).values_list("last_seq", flat=True).get()
        rows = [
            RunEvent(run_id=run_id, seq=last - count + offset + 1, attempt=attempt, type=kind, payload=payload)
            for offset, (kind, payload) in enumerate(items)
        ]
        RunEvent.objects.bulk_create(rows)
    return [stored(row) for row in rows]


@dataclass(frozen=True)
class LeasedBatch:
    """Events of one run from the worker attempt ``owner`` that claimed it."""

    run_id: int
    owner: str
    attempt: int
    items: Sequence[tuple[str, dict[str, Any]]]


def leases_held(owners: Mapping[int, str]) -> dict[int, tuple[int, bool]]:
    """Of the runs ``owners`` (run id -> lease owner) names, those still running under that owner, locked
    until the transaction ends: run id -> (last_seq, cancel_requested). Call inside ``transaction.atomic``."""
    rows = (
        Run.objects.select_for_update()
        .filter(pk__in=owners, status=RunStatus.RUNNING)
        .order_by("pk")
        .values_list("pk", "lease_owner", "last_seq", "cancel_requested")
    )
    return {pk: (last_seq, cancel) for pk, owner, last_seq, cancel in rows if owner == owners[pk]}


def events_store_leased(batches: Sequence[LeasedBatch], *, claimed_until: datetime) -> dict[int, list[StoredEvent]]:
    """Each batch stored with its run's next seqs if its attempt still holds the lease, which is renewed:
    one transaction of three statements for any number of runs (the worker's hot path). Runs whose
    lease is gone are left out of the result (their events are not stored)."""
    by_run = {batch.run_id: batch for batch in batches}
    with transaction.atomic():
        held = {run_id: last for run_id, (last, _) in leases_held({r: b.owner for r, b in by_run.items()}).items()}
        if not held:
            return {}
        last_seqs = [When(pk=run_id, then=Value(last + len(by_run[run_id].items))) for run_id, last in held.items()]
        Run.objects.filter(pk__in=held).update(last_seq=Case(*last_seqs), claimed_until=claimed_until)
        rows = {
            run_id: [RunEvent(run_id=run_id, seq=last + offset + 1, attempt=by_run[run_id].attempt, type=kind,
                              payload=payload) for offset, (kind, payload) in enumerate(by_run[run_id].items)]
            for run_id, last in held.items()
        }  # fmt: skip
        RunEvent.objects.bulk_create([row for run_rows in rows.values() for row in run_rows])
    return {run_id: [stored(row) for row in run_rows] for run_id, run_rows in rows.items()}


def events_publish(*, run_id: int, events: Sequence[StoredEvent]) -> None:
    publish_run_events(run_id, [event.message() for event in events])


def event_append(
    *, run_id: int, kind: str, payload: dict[str, Any], attempt: int, guard: Q, **run_fields: Any
) -> StoredEvent | None:
    """Store one event (and update ``run_fields``) if the run matches ``guard``, then publish it after commit."""
    with transaction.atomic():
        events = events_store(run_id=run_id, items=[(kind, payload)], attempt=attempt, guard=guard, **run_fields)
        if events is None:
            return None
        transaction.on_commit(lambda: events_publish(run_id=run_id, events=events))
    return events[0]
