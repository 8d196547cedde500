"""The corpus health check's Celery task by name (services enqueue it without importing the tasks module)."""

from __future__ import annotations

# the `reports` queue (the compose file's `worker` consumes it beside `runs`: a check holds one of its pool processes
# while it runs, up to the tasks' 3 h soft limit; a separate worker for `reports` keeps runs' places free)
HEALTH_CHECK = "research.tasks.report_corpus_health"
