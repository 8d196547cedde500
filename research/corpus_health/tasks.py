"""Celery task of the corpus health check (the `reports` queue)."""

from __future__ import annotations

from celery import shared_task

from research.corpus_health import services
from research.corpus_health.task_names import HEALTH_CHECK


@shared_task(name=HEALTH_CHECK, acks_late=True, ignore_result=True)
def corpus_health_run(check_id: int) -> None:
    """Generate the check's tasks and run both systems on them; a redelivered message for a check already under
    way or ended does nothing."""
    services.health_check_execute(check_id=check_id)
