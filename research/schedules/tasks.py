"""Celery tasks of schedules: beat's tick and a scheduled run's digest (thin: ids in, a service call)."""

from __future__ import annotations

import logging

from celery import shared_task

from research.schedules import digests, firing
from research.schedules.task_names import REPORT_DIGEST, SCHEDULES_FIRE

logger = logging.getLogger(__name__)

MAIL_RETRIES = 3


@shared_task(name=SCHEDULES_FIRE, ignore_result=True)
def schedules_fire() -> None:
    """Fire the due schedules (Celery beat, every SCHEDULE_TICK_SECONDS, on the default queue)."""
    firing.schedules_fire()


@shared_task(bind=True, name=REPORT_DIGEST, acks_late=True, ignore_result=True, max_retries=MAIL_RETRIES)
def report_digest(self, run_id: int) -> None:  # type: ignore[no-untyped-def]
    """Make a scheduled run's digest and e-mail it; a mail server failure retries the e-mails not yet sent."""
    digest = digests.digest_make(run_id=run_id)
    if digest is None:
        return
    delivery = digests.digest_email(digest=digest)
    if delivery.sent.error:
        logger.warning("digest of run %s: e-mail failed (%s); retrying", run_id, delivery.sent.error)
        raise self.retry(countdown=60 * 2**self.request.retries)
