"""The corpus health check's Celery task by name (services enqueue it without importing the tasks module)."""

from __future__ import annotations

# the `reports` queue: long CPU work beside reports, never holding up research runs or uploads
HEALTH_CHECK = "research.tasks.report_corpus_health"
