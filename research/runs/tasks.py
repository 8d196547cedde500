"""Celery tasks of research runs: thin wrappers that take ids and call the runs services.

The web side enqueues them by name (``runs.services.run_enqueue``); the names keep the
``research.tasks.`` prefix, which is what routes them (worker/queues.py).
"""

from __future__ import annotations

from celery import shared_task

from research.runs import execution, sweeper
from research.runs.services import RUN_TASK


@shared_task(name=RUN_TASK, acks_late=True, ignore_result=True)
def run_execute(run_id: int | None = None) -> None:
    """Run the waiting run whose turn it is (research/runs/dispatch.py), usually ``run_id``'s; a duplicate or
    redelivered message runs another waiting run or nothing."""
    execution.run_dispatch(sent_for=run_id)


@shared_task(name="research.tasks.sweep_runs", ignore_result=True)
def sweep_runs() -> None:
    """Celery beat's periodic sweep (on the default queue, so busy run workers never delay it)."""
    sweeper.run_sweep()
