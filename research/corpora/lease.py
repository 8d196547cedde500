"""An upload file's lease: the worker that claims a file (a conditional UPDATE) is the only one that writes it.

A long stage renews the lease; every stage change checks it (``advance``), so a worker whose lease ran out and
whose file the sweep (``sweep_stuck``) handed to another worker writes nothing more (``LeaseLost``), and gives
back (``release``) only a lease that is still its own.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from research.corpora import progress, task_names
from research.models import TERMINAL_STAGES, Stage, UploadFile

logger = logging.getLogger(__name__)


# The lease this worker (its process, thread: its context) last took or renewed on each file, by file id:
# ``release`` is given an id only (the task's step raised), and must give back this worker's lease, never the
# lease of a worker that took the file over meanwhile.
_taken: ContextVar[dict[int, datetime] | None] = ContextVar("ingest_leases_taken", default=None)


def _leases_taken() -> dict[int, datetime]:
    taken = _taken.get()
    if taken is None:
        taken = {}
        _taken.set(taken)
    return taken


def _took(item: UploadFile) -> None:
    """Note the lease this worker holds on ``item`` now (none, once it gave it up with a stage)."""
    if item.claimed_until is None:
        _leases_taken().pop(item.pk, None)
    else:
        _leases_taken()[item.pk] = item.claimed_until


def lease() -> timedelta:
    return timedelta(seconds=settings.INGEST_LEASE_SECONDS)


def claim(upload_file_id: int, *, stage: Stage | None = None) -> UploadFile | None:
    """Take the lease on a file that is not finished (or at ``stage``) and not leased by a live worker; None
    otherwise."""
    now = timezone.now()
    files = UploadFile.objects.filter(pk=upload_file_id)
    claimed = (
        (files.filter(stage=stage) if stage is not None else files)
        .exclude(stage__in=TERMINAL_STAGES)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .update(claimed_until=now + lease(), attempts=F("attempts") + 1)
    )
    if claimed != 1:
        return None
    item = UploadFile.objects.select_related("upload__corpus__workspace").get(pk=upload_file_id)
    _took(item)
    return item


class LeaseLost(Exception):
    """This worker no longer holds its file: its lease ran out, the sweep released the file, and another worker
    may have claimed it. The worker writes nothing more (the file's new holder ingests it), as a run's attempt
    that lost its lease does (research/runs)."""


def mine(item: UploadFile) -> QuerySet[UploadFile]:
    """The file, if the lease this worker took (``item.claimed_until``, as it last wrote it) is still its."""
    return UploadFile.objects.filter(pk=item.pk, claimed_until=item.claimed_until)


def held(item: UploadFile) -> bool:
    """Whether this worker still holds ``item``'s lease."""
    return mine(item).exists()


def hold(item: UploadFile, doing: str) -> None:
    """Go on only if this worker still holds ``item``'s lease; else LeaseLost, saying what it was ``doing``."""
    if not held(item):
        raise LeaseLost(f"ingest of {item.name}: the file's lease was lost {doing}")


def renew(item: UploadFile) -> None:
    """Extend the lease this worker holds on ``item``: a long stage says it is still alive, so the sweep (which
    queues again the files whose lease expired) does not hand the file to a second worker while this one writes.
    LeaseLost if the file is no longer this worker's."""
    until = timezone.now() + lease()
    if mine(item).update(claimed_until=until) != 1:
        raise LeaseLost(f"ingest of {item.name}: the file's lease was lost; the worker that took it over goes on")
    item.claimed_until = until
    _took(item)


def advance(item: UploadFile, stage: Stage, **fields: object) -> None:
    """Move the file to ``stage`` (with ``fields``), if this worker still holds it (else LeaseLost). The check
    locks the file's row until the save, so the sweep cannot release the file between the two (PostgreSQL)."""
    with transaction.atomic():
        if not mine(item).select_for_update().exists():
            raise LeaseLost(f"ingest of {item.name}: the file's lease was lost before stage {stage}")
        item.stage = stage
        for name, value in fields.items():
            setattr(item, name, value)
        if stage in TERMINAL_STAGES:
            item.claimed_until = None
        item.save()
    _took(item)
    progress.file_changed(item)


def release(upload_file_id: int, note: str) -> bool:
    """Give back the lease this worker holds on the file, with ``note`` as its error (a transient failure: the
    task will be retried). False, changing nothing, when the lease is no longer this worker's: it ran out and the
    sweep released the file or another worker took it over (whose lease and file stay as they are)."""
    until = _leases_taken().pop(upload_file_id, None)
    if until is not None:
        its_own = UploadFile.objects.filter(pk=upload_file_id, claimed_until=until)
        if its_own.update(claimed_until=None, error=note) == 1:
            return True
    logger.warning("ingest of file %s: not released, this worker no longer holds its lease (%s)", upload_file_id, note)
    return False


def sweep_stuck() -> list[tuple[int, str]]:
    """Files whose worker died holding them (their lease expired before a final stage): each is released and
    queued again for the stage it was in (its words, or its vectors), once. Returns (file id, stage) of each."""
    now, requeued = timezone.now(), []
    stuck = UploadFile.objects.exclude(stage__in=TERMINAL_STAGES).filter(claimed_until__lt=now)
    for file_id, stage, until in stuck.values_list("id", "stage", "claimed_until"):
        if UploadFile.objects.filter(pk=file_id, claimed_until=until).update(claimed_until=None) != 1:
            continue  # claimed again meanwhile
        if stage == Stage.SEARCHABLE:
            task_names.refine_enqueue(file_id)
        else:
            task_names.ingest_files_enqueue([file_id])
        logger.warning("ingest of file %s re-queued at stage %s: its worker stopped holding it", file_id, stage)
        requeued.append((file_id, str(stage)))
    return requeued
