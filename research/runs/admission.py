"""How many runs a member and a workspace may have waiting or running at once, and when a refused member may
try again.

- a member: ``RUNS_ACTIVE_PER_USER`` runs they started one by one (questions, reports, investigations, their
  schedules, the API) plus ICP batches still checking, counted over all their workspaces (so making workspaces
  does not multiply it); a batch counts once, whatever its rows;
- a workspace: ``RUNS_ACTIVE_PER_WORKSPACE`` runs, batch rows included; a batch that does not fit is refused
  whole, saying how many companies would.

The refusal (``OverLimit``) says when to try again: the time the workspace's recent runs took, less what the
oldest of the counted running runs has already run (a slot frees then), at least ``MIN_RETRY`` seconds.
Checked in the starting transaction with the member's and the workspace's rows locked, so two starts at once
cannot both take the last place (on PostgreSQL; SQLite runs one writer at a time).
"""

from __future__ import annotations

import statistics

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS
from django.db.models import QuerySet
from django.utils import timezone

from research.models import IcpBatch, Membership, Run, RunStatus, Workspace
from research.platform.quotas import OverLimit, wait_words

ACTIVE = (RunStatus.QUEUED, RunStatus.RUNNING)
MIN_RETRY = 10  # seconds
DEFAULT_RUN_SECONDS = 60  # what a run is assumed to take where none has finished yet
RECENT_RUNS = 20  # finished runs whose durations make the estimate


def member_jobs(user: User) -> int:
    """The runs ``user`` started one by one that are waiting or running, plus their batches still checking."""
    runs = Run.objects.filter(created_by=user, status__in=ACTIVE, batch_row__isnull=True).count()
    batches = IcpBatch.objects.filter(created_by=user, rows__run__status__in=ACTIVE).distinct().count()
    return runs + batches


def workspace_runs(workspace_id: int) -> int:
    return Run.objects.filter(workspace_id=workspace_id, status__in=ACTIVE).count()


def retry_seconds(active: QuerySet[Run], workspace_id: int) -> int:
    """When one of ``active`` is likely to have finished: a typical run of the workspace (the median of its
    recent finished runs) less the longest that one of them has been running."""
    finished = Run.objects.filter(
        workspace_id=workspace_id, status=RunStatus.FINISHED, started_at__isnull=False, finished_at__isnull=False
    ).order_by("-finished_at")[:RECENT_RUNS]
    spans = finished.values_list("started_at", "finished_at")
    durations = [(end - start).total_seconds() for start, end in spans if start is not None and end is not None]
    typical = statistics.median(durations) if durations else DEFAULT_RUN_SECONDS
    oldest = active.filter(status=RunStatus.RUNNING, started_at__isnull=False).order_by("started_at").first()
    elapsed = (timezone.now() - oldest.started_at).total_seconds() if oldest and oldest.started_at else 0.0
    return max(MIN_RETRY, round(typical - elapsed))


def run_admit(*, actor: Membership, runs: int = 1, batch: bool = False) -> None:
    """Refuse (``OverLimit``) starting ``runs`` more runs for ``actor`` (one batch of them when ``batch``) when the
    member's or the workspace's limit would be passed; call it inside the transaction that creates them. A batch's
    refusal is an error of its ``file``, one run's of no field."""
    field = "file" if batch else NON_FIELD_ERRORS
    user = actor.user
    Workspace.objects.select_for_update().filter(pk=actor.workspace_id).exists()
    User.objects.select_for_update().filter(pk=user.pk).exists()
    mine = member_jobs(user)
    if mine + 1 > settings.RUNS_ACTIVE_PER_USER:
        active = Run.objects.filter(created_by=user, status__in=ACTIVE)
        wait = retry_seconds(active, actor.workspace_id)
        raise OverLimit(
            f"You have {mine} {'run or batch' if mine == 1 else 'runs or batches'} waiting or running, the most one"
            " member may have at once"
            f" (RUNS_ACTIVE_PER_USER). Try again when one has finished: in {wait_words(wait)}.",
            retry_after=wait,
            field=field,
        )
    limit = settings.RUNS_ACTIVE_PER_WORKSPACE
    present = workspace_runs(actor.workspace_id)
    if present + runs <= limit:
        return
    active = Run.objects.filter(workspace_id=actor.workspace_id, status__in=ACTIVE)
    wait = retry_seconds(active, actor.workspace_id)
    if batch:
        room = max(0, limit - present)
        raise OverLimit(
            f"This batch would start {runs} runs; the workspace has {present} waiting or running and may have"
            f" {limit} at once (RUNS_ACTIVE_PER_WORKSPACE), so {room} fit now. Check fewer companies, or try"
            f" again when some have finished: in {wait_words(wait)}.",
            retry_after=wait,
            field=field,
        )
    raise OverLimit(
        f"This workspace has {present} runs waiting or running, the most it may have at once"
        f" (RUNS_ACTIVE_PER_WORKSPACE). Try again when one has finished: in {wait_words(wait)}.",
        retry_after=wait,
        field=field,
    )
