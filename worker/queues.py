"""The Celery queues and which tasks go to each."""

from __future__ import annotations

from kombu import Queue

# ingest: parsing and embedding uploads; runs: research runs; reports: writer and scheduled reports.
QUEUE_NAMES = ("default", "ingest", "runs", "reports")
QUEUES = tuple(Queue(name) for name in QUEUE_NAMES)

TASK_ROUTES = {
    "research.tasks.ingest_*": {"queue": "ingest"},
    "research.tasks.run_*": {"queue": "runs"},
    "research.tasks.report_*": {"queue": "reports"},
}
