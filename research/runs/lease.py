"""Claiming a run: an atomic conditional UPDATE gives one worker attempt a lease that it renews while it lives."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import DateTimeField, F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from research.models import Run, RunStatus, Workspace
from research.protocol.events import RunRestarted
from research.runs.journal import event_append

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Claim:
    """One worker attempt's hold on a run: every write it makes is guarded by still holding it."""

    run_id: int
    owner: str
    attempt: int

    @property
    def guard(self) -> Q:
        return Q(status=RunStatus.RUNNING, lease_owner=self.owner)


def lease_length() -> timedelta:
    return timedelta(seconds=settings.RUN_LEASE_SECONDS)


def heartbeat_seconds() -> float:
    """How often a worker renews its lease and looks for a cancel: about once a second, well inside the lease."""
    return min(1.0, settings.RUN_LEASE_SECONDS / 3)


def _new_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def claimable(now: object) -> Q:
    """Queued, or running under a lease that has expired (its worker is gone)."""
    return Q(status=RunStatus.QUEUED) | Q(status=RunStatus.RUNNING, claimed_until__lt=now)


def _restarted(claim: Claim, last_seq: int, reason: str) -> None:
    """Append the ``run_restarted`` that opens a later attempt: what it supersedes and why."""
    restarted = RunRestarted(
        attempt=claim.attempt,
        max_attempts=settings.RUN_MAX_ATTEMPTS,
        superseded_through=last_seq,
        reason=reason or "the previous worker stopped renewing its lease",
    )
    event_append(run_id=claim.run_id, event=restarted, attempt=claim.attempt, guard=claim.guard, status_reason="")
    logger.warning("run %s: restarting as attempt %s (%s)", claim.run_id, claim.attempt, restarted.reason)


def running_now(workspace_id: int, now: object) -> int:
    """The workspace's runs held under a live lease."""
    return Run.objects.filter(workspace_id=workspace_id, status=RunStatus.RUNNING, claimed_until__gte=now).count()


def run_claim(*, run_id: int, cap: int | None = None) -> Claim | None:
    """Take the run if it is claimable and has attempts left; None when another worker has it or it is done, or
    (with ``cap``) when its workspace already has ``cap`` runs running: the workspace's row is locked while it
    counts, so two workers cannot both take its last place.

    Exactly one of several concurrent claims (a duplicate or redelivered message) changes the row. A
    claim after an earlier attempt stores a ``run_restarted`` event first: the run starts again from the
    beginning, and the events of earlier attempts are superseded (kept, never renumbered).
    """
    now = timezone.now()
    owner = _new_owner()
    with transaction.atomic():
        if cap is not None:
            workspace_id = Run.objects.filter(pk=run_id).values_list("workspace_id", flat=True).first()
            if workspace_id is None:
                return None
            Workspace.objects.select_for_update().filter(pk=workspace_id).exists()
            if running_now(workspace_id, now) >= cap:
                return None
        updated = Run.objects.filter(claimable(now), pk=run_id, attempts__lt=settings.RUN_MAX_ATTEMPTS).update(
            status=RunStatus.RUNNING,
            lease_owner=owner,
            claimed_until=now + lease_length(),
            attempts=F("attempts") + 1,
            started_at=Coalesce(F("started_at"), Value(now, DateTimeField())),
        )
        if updated != 1:
            return None
        attempt, last_seq, reason = Run.objects.values_list("attempts", "last_seq", "status_reason").get(pk=run_id)
        claim = Claim(run_id=run_id, owner=owner, attempt=attempt)
        if attempt > 1:  # in the claim's transaction: nothing (a cancel request) can come between them
            _restarted(claim, last_seq, reason)
    return claim
