"""Which waiting run a free worker takes: fair between workspaces, and at most ``RUNS_CONCURRENT_PER_WORKSPACE``
of one workspace's runs at once.

A message on the `runs` queue names the run it was sent for, but it stands for a free place: the worker takes
the waiting run of the workspace with the fewest runs running, the one served least recently among equals (so
workspaces take turns), its oldest run first. A workspace at its cap is passed over; when one of its runs ends,
the worker that ran it sends a message for the next waiting run (``after_run``), and the sweeper sends one for
any workspace with a free place whose runs have waited too long (a message lost with Redis). Only runs the
product queued are taken (``enqueued_at`` set): a benchmark's synthetic run is streamed by its own task.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import Count, Max, Min
from django.utils import timezone

from research.models import Run, RunStatus
from research.runs.lease import Claim, claimable, run_claim

CANDIDATES = 10  # workspaces tried in turn when others' workers take the first ones meanwhile
ROUNDS = 20  # readings of the order at most, when other workers keep taking its runs first


def fair_order(now: datetime) -> list[int]:
    """The oldest claimable run of each workspace below its cap, the workspace to serve first first."""
    cap = settings.RUNS_CONCURRENT_PER_WORKSPACE
    waiting = dict(
        # a run the product queued (run_start sets enqueued_at); a benchmark's synthetic run is its own task's
        Run.objects.filter(claimable(now), attempts__lt=settings.RUN_MAX_ATTEMPTS, enqueued_at__isnull=False)
        .values("workspace_id")
        .annotate(first=Min("pk"))
        .values_list("workspace_id", "first")
    )
    if not waiting:
        return []
    mine = Run.objects.filter(workspace_id__in=waiting)
    running = dict(
        mine.filter(status=RunStatus.RUNNING, claimed_until__gte=now)
        .values("workspace_id")
        .annotate(n=Count("pk"))
        .values_list("workspace_id", "n")
    )
    served = dict(
        mine.filter(started_at__isnull=False)
        .values("workspace_id")
        .annotate(last=Max("started_at"))
        .values_list("workspace_id", "last")
    )
    never = datetime.min.replace(tzinfo=now.tzinfo)
    open_ = [workspace for workspace in waiting if running.get(workspace, 0) < cap]
    open_.sort(key=lambda workspace: (running.get(workspace, 0), served.get(workspace) or never, waiting[workspace]))
    return [waiting[workspace] for workspace in open_[:CANDIDATES]]


def claim_next() -> Claim | None:
    """Claim the run to serve next (``fair_order``); None when no workspace with a free place has one waiting.

    ``fair_order`` names one run per workspace, so when other workers take those first (several free workers given
    one workspace's runs at once), the order is read again: their next runs are waiting. Without that, a message
    that lost every race was spent with runs still waiting, and a workspace's runs went one or two at a time on
    four free places (measured with two prefork workers: ``bench_load --topology production``)."""
    lost: set[int] = set()
    for _ in range(ROUNDS):
        candidates = [run_id for run_id in fair_order(timezone.now()) if run_id not in lost]
        if not candidates:
            return None
        for run_id in candidates:
            claim = run_claim(run_id=run_id, cap=settings.RUNS_CONCURRENT_PER_WORKSPACE)
            if claim is not None:
                return claim
            lost.add(run_id)
    return None


def waiting() -> bool:
    return Run.objects.filter(status=RunStatus.QUEUED).exists()
