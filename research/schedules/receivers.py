"""The schedules' answers to what other features announce: a scheduled run's end enqueues its digest at once."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from research.models import Run
from research.platform.queue import task_send
from research.runs.signals import run_ended
from research.schedules.task_names import REPORT_DIGEST


def digest_on_run_end(sender: type[Run], *, run_id: int, **_: Any) -> None:
    if Run.objects.filter(pk=run_id, schedule__isnull=False).exists():
        transaction.on_commit(lambda: task_send(REPORT_DIGEST, run_id))


def connect_signals() -> None:
    run_ended.connect(digest_on_run_end, sender=Run, dispatch_uid="schedules.digest_on_run_end")
