"""The webhooks' Celery task by name (a run's end enqueues it without importing the task)."""

from __future__ import annotations

WEBHOOK_DELIVER = "research.tasks.webhook_deliver"  # one delivery's next attempt (the default queue)
WEBHOOKS_SWEEP = "research.tasks.webhooks_sweep"  # Celery beat, every minute: overdue deliveries sent again
