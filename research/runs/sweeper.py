"""The periodic sweeper (Celery beat): no run stays "running" after its worker is gone, nor queued unseen.

- running with an expired lease and a cancel asked for: cancelled with the member's reason (restarting a run
  its member wanted stopped would spend a worker against their wish);
- running with an expired lease, attempts left: back to queued with the reason, a ``run_requeued``
  event, and a new message (the next claim restarts it visibly, see ``lease.run_claim``);
- running with an expired lease, no attempts left: failed, with a ``run_failed`` event saying why;
- queued, last enqueued more than ten leases ago, in a workspace with a free place (fewer than
  RUNS_CONCURRENT_PER_WORKSPACE running): enqueued again (a message lost with a Redis that did not persist it),
  as many as it has free places; a duplicate message is harmless, since only one claim can win. A workspace at
  its cap is not sent messages: the end of one of its runs sends the next (research/runs/dispatch.py).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from research.models import Run, RunStatus
from research.protocol.events import RunCancelled, RunFailed, RunRequeued
from research.runs.journal import event_append
from research.runs.lease import lease_length, running_now
from research.runs.services import run_enqueue
from research.runs.signals import run_ended

logger = logging.getLogger(__name__)

STALE_QUEUED_LEASES = 10


@dataclass
class Sweep:
    requeued: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)
    reenqueued: list[int] = field(default_factory=list)


def run_sweep(*, now: datetime | None = None) -> Sweep:
    now = now or timezone.now()
    sweep = Sweep()
    _sweep_lost(sweep, now)
    for run_id in _stale_with_room(now):
        if Run.objects.filter(pk=run_id, status=RunStatus.QUEUED).update(enqueued_at=now) == 1:
            run_enqueue(run_id)
            sweep.reenqueued.append(run_id)
    if sweep.requeued or sweep.failed or sweep.reenqueued or sweep.cancelled:
        logger.warning(
            "run sweep: requeued %s, failed %s, cancelled %s, enqueued again %s",
            sweep.requeued,
            sweep.failed,
            sweep.cancelled,
            sweep.reenqueued,
        )
    return sweep


def _stale_with_room(now: datetime) -> list[int]:
    """Queued runs whose message may be lost, as many of each workspace as it has places free now."""
    stale = Run.objects.filter(status=RunStatus.QUEUED, enqueued_at__lt=now - STALE_QUEUED_LEASES * lease_length())
    free: dict[int, int] = {}
    chosen = []
    for run_id, workspace_id in stale.order_by("pk").values_list("pk", "workspace_id"):
        if workspace_id not in free:
            free[workspace_id] = settings.RUNS_CONCURRENT_PER_WORKSPACE - running_now(workspace_id, now)
        if free[workspace_id] > 0:
            free[workspace_id] -= 1
            chosen.append(run_id)
    return chosen


def _sweep_lost(sweep: Sweep, now: datetime) -> None:
    """Runs whose worker is gone (an expired lease): cancelled when a cancel was asked for, failed when out of
    attempts, else queued again."""
    expired = Run.objects.filter(_lost(now)).values_list("pk", "attempts", "cancel_requested", "cancel_reason")
    for run_id, attempts, cancel_requested, cancel_reason in expired:
        if cancel_requested:
            if _cancel(run_id, attempts, cancel_reason, now):
                sweep.cancelled.append(run_id)
        elif attempts >= settings.RUN_MAX_ATTEMPTS:
            if _fail(run_id, attempts, now):
                sweep.failed.append(run_id)
                run_ended.send(sender=Run, run_id=run_id, status=str(RunStatus.FAILED))  # its webhook, its digest
        elif _requeue(run_id, attempts, now):
            sweep.requeued.append(run_id)


def _lost(now: datetime) -> Q:
    return Q(status=RunStatus.RUNNING, claimed_until__lt=now)


def _requeue(run_id: int, attempts: int, now: datetime) -> bool:
    reason = f"the worker running attempt {attempts} stopped (its lease expired); re-queued"
    with transaction.atomic():
        event = event_append(
            run_id=run_id,
            event=RunRequeued(attempt=attempts, reason=reason),
            attempt=attempts,
            guard=_lost(now),
            status=RunStatus.QUEUED,
            status_reason=reason,
            lease_owner="",
            claimed_until=None,
            enqueued_at=now,
        )
        if event is not None:
            transaction.on_commit(lambda: run_enqueue(run_id))
    return event is not None


def _cancel(run_id: int, attempts: int, reason: str, now: datetime) -> bool:
    """A run whose member asked it to stop, and whose worker died before it could: cancelled, as asked."""
    reason = reason or "cancelled"
    event = event_append(
        run_id=run_id,
        event=RunCancelled(reason=reason),
        attempt=attempts,
        guard=_lost(now),
        status=RunStatus.CANCELLED,
        status_reason=reason,
        lease_owner="",
        claimed_until=None,
        finished_at=now,
    )
    return event is not None


def _fail(run_id: int, attempts: int, now: datetime) -> bool:
    reason = f"the worker was lost {attempts} times (attempts exhausted); giving up"
    event = event_append(
        run_id=run_id,
        event=RunFailed(error=reason),
        attempt=attempts,
        guard=_lost(now),
        status=RunStatus.FAILED,
        status_reason=reason,
        lease_owner="",
        claimed_until=None,
        finished_at=now,
    )
    return event is not None
