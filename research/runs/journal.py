"""The run event journal: events get the run's next sequence numbers and are stored before they are published.

Sequence numbers are allocated by incrementing ``Run.last_seq`` in the same transaction that inserts
the events, and that UPDATE also carries the writer's guard (for a worker: "I still hold the lease").
The UPDATE locks the run row until commit, so writers are serialised per run and a committed event
``seq`` implies every lower one is committed too: a reader that sees ``seq`` can fetch everything
before it from the database. Publishing happens after commit; the channel layer may drop a message,
the database never does. Events are typed (research/protocol/events.py) on the way in and on the way
out: ``StoredEvent.event()`` gives back the typed event a stored payload holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils.dateparse import parse_datetime

from research.models import Run, RunEvent, RunStatus
from research.platform.realtime import publish_run_events
from research.protocol.events import AnyEvent, from_dict, to_dict


@dataclass(frozen=True)
class UnreadableEvent:
    """A stored payload that no longer reads as a typed event (a corrupt row, or a field renamed by mistake)."""

    type: str
    error: str


@dataclass(frozen=True)
class StoredEvent:
    """A journal entry as sockets and the events endpoint send it."""

    seq: int
    type: str
    payload: dict[str, Any]
    attempt: int
    at: datetime

    def message(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "type": self.type,
            "payload": self.payload,
            "attempt": self.attempt,
            "at": self.at.isoformat(),
        }

    @classmethod
    def from_message(cls, message: Mapping[str, Any]) -> StoredEvent:
        """The inverse of :meth:`message` (what a live channel-layer message carries)."""
        at = parse_datetime(str(message["at"]))
        if at is None:
            raise ValueError(f"not a time: {message['at']!r}")
        return cls(int(message["seq"]), str(message["type"]), dict(message["payload"]), int(message["attempt"]), at)

    def event(self) -> AnyEvent | UnreadableEvent:
        """The typed event this entry stores (an ``UnreadableEvent`` when the payload does not read as one)."""
        try:
            return from_dict({**self.payload, "type": self.type})
        except (KeyError, TypeError, ValueError) as error:
            return UnreadableEvent(self.type, f"{type(error).__name__}: {error}")


def stored(event: RunEvent) -> StoredEvent:
    return StoredEvent(event.seq, event.type, event.payload, event.attempt, event.created_at)


def _row(run_id: int, seq: int, attempt: int, event: AnyEvent) -> RunEvent:
    return RunEvent(run_id=run_id, seq=seq, attempt=attempt, type=event.type, payload=to_dict(event))


def events_store(
    *, run_id: int, events: Sequence[AnyEvent], attempt: int, guard: Q, **run_fields: Any
) -> list[StoredEvent] | None:
    """Store ``events`` with the run's next sequence numbers, in one transaction, if the run matches ``guard``;
    ``run_fields`` are updated in the same statement. None (nothing stored) otherwise."""
    with transaction.atomic():
        count = len(events)
        updated = Run.objects.filter(guard, pk=run_id).update(last_seq=F("last_seq") + count, **run_fields)
        if updated != 1:
            return None
        if not count:
            return []
        last = Run.objects.filter(pk=run_id).values_list("last_seq", flat=True).get()
        rows = [_row(run_id, last - count + offset + 1, attempt, event) for offset, event in enumerate(events)]
        RunEvent.objects.bulk_create(rows)
    return [stored(row) for row in rows]


@dataclass(frozen=True)
class LeasedBatch:
    """Events of one run from the worker attempt ``owner`` that claimed it."""

    run_id: int
    owner: str
    attempt: int
    events: Sequence[AnyEvent]


class Held(NamedTuple):
    """A run still held by the attempt that asked: where its journal stands and whether to stop."""

    last_seq: int
    cancel_requested: bool
    cancel_reason: str


def leases_held(owners: Mapping[int, str]) -> dict[int, Held]:
    """Of the runs ``owners`` (run id -> lease owner) names, those still running under that owner, locked
    until the transaction ends. Call inside ``transaction.atomic``."""
    rows = (
        Run.objects.select_for_update()
        .filter(pk__in=owners, status=RunStatus.RUNNING)
        .order_by("pk")
        .values_list("pk", "lease_owner", "last_seq", "cancel_requested", "cancel_reason")
    )
    return {pk: Held(last_seq, cancel, reason) for pk, owner, last_seq, cancel, reason in rows if owner == owners[pk]}


def events_store_leased(batches: Sequence[LeasedBatch], *, claimed_until: datetime) -> dict[int, list[StoredEvent]]:
    """Each batch stored with its run's next seqs if its attempt still holds the lease, which is renewed:
    one transaction of three statements for any number of runs (the worker's hot path). Runs whose
    lease is gone are left out of the result (their events are not stored)."""
    by_run = {batch.run_id: batch for batch in batches}
    with transaction.atomic():
        leases = leases_held({run_id: batch.owner for run_id, batch in by_run.items()})
        held = {run_id: lease.last_seq for run_id, lease in leases.items()}
        if not held:
            return {}
        last_seqs = [When(pk=run_id, then=Value(last + len(by_run[run_id].events))) for run_id, last in held.items()]
        Run.objects.filter(pk__in=held).update(last_seq=Case(*last_seqs), claimed_until=claimed_until)
        rows = {
            run_id: [
                _row(run_id, last + offset + 1, by_run[run_id].attempt, event)
                for offset, event in enumerate(by_run[run_id].events)
            ]
            for run_id, last in held.items()
        }
        RunEvent.objects.bulk_create([row for run_rows in rows.values() for row in run_rows])
    return {run_id: [stored(row) for row in run_rows] for run_id, run_rows in rows.items()}


def events_publish(*, run_id: int, events: Sequence[StoredEvent]) -> None:
    publish_run_events(run_id, [event.message() for event in events])


def event_append(*, run_id: int, event: AnyEvent, attempt: int, guard: Q, **run_fields: Any) -> StoredEvent | None:
    """Store one event (and update ``run_fields``) if the run matches ``guard``, then publish it after commit."""
    with transaction.atomic():
        events = events_store(run_id=run_id, events=[event], attempt=attempt, guard=guard, **run_fields)
        if events is None:
            return None
        transaction.on_commit(lambda: events_publish(run_id=run_id, events=events))
    return events[0]
