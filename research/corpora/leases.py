"""An upload file's lease: the worker that claims a file (a conditional UPDATE) is the only one that writes it.

A long stage renews the lease; every stage change checks it (``advance``), so a worker whose lease ran out and
whose file the sweep (``sweep_stuck``) handed to another worker writes nothing more (``LeaseLost``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from research.corpora import jobs, progress
from research.models import TERMINAL_STAGES, Stage, UploadFile

logger = logging.getLogger(__name__)


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
    return UploadFile.objects.select_related("upload__corpus__workspace").get(pk=upload_file_id)


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


def advance(item: UploadFile, stage: Stage, **fields: object) -> None:
    """Move the file to ``stage`` (with ``fields``), if this worker still holds it (else LeaseLost)."""
    with transaction.atomic():
        hold(item, f"before stage {stage}")
        item.stage = stage
        for name, value in fields.items():
            setattr(item, name, value)
        if stage in TERMINAL_STAGES:
            item.claimed_until = None
        item.save()
    progress.file_changed(item)


def release(upload_file_id: int, note: str) -> None:
    """Give the lease back (a transient failure: the task will be retried)."""
    UploadFile.objects.filter(pk=upload_file_id).update(claimed_until=None, error=note)


def sweep_stuck() -> list[tuple[int, str]]:
    """Files whose worker died holding them (their lease expired before a final stage): each is released and
    queued again for the stage it was in (its words, or its vectors), once. Returns (file id, stage) of each."""
    now, requeued = timezone.now(), []
    stuck = UploadFile.objects.exclude(stage__in=TERMINAL_STAGES).filter(claimed_until__lt=now)
    for file_id, stage, until in stuck.values_list("id", "stage", "claimed_until"):
        if UploadFile.objects.filter(pk=file_id, claimed_until=until).update(claimed_until=None) != 1:
            continue  # claimed again meanwhile
        if stage == Stage.SEARCHABLE:
            jobs.refine_enqueue(file_id)
        else:
            jobs.ingest_files_enqueue([file_id])
        logger.warning("ingest of file %s re-queued at stage %s: its worker stopped holding it", file_id, stage)
        requeued.append((file_id, str(stage)))
    return requeued
