"""Celery task of webhooks: one attempt at a delivery, the next one scheduled with backoff (thin: an id in)."""

from __future__ import annotations

import logging

from celery import shared_task

from research.platform.queue import task_send
from research.webhooks import services
from research.webhooks.task_names import WEBHOOK_DELIVER, WEBHOOKS_SWEEP

logger = logging.getLogger(__name__)


@shared_task(name=WEBHOOK_DELIVER, acks_late=True, ignore_result=True)
def webhook_deliver(delivery_id: int) -> None:
    attempt = services.delivery_attempt(delivery_id=delivery_id)
    logger.info("webhook delivery %s: %s %s", delivery_id, attempt.status, attempt.detail)
    if attempt.retry_in is not None:
        task_send(WEBHOOK_DELIVER, delivery_id, countdown=attempt.retry_in)


@shared_task(name=WEBHOOKS_SWEEP, ignore_result=True)
def webhooks_sweep() -> None:
    """Send again the deliveries whose next attempt is overdue (Celery beat, every minute)."""
    resent = services.deliveries_overdue_resend()
    if resent:
        logger.warning("webhook deliveries %s were overdue (a worker lost them); sent again", resent)
