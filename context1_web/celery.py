"""The Celery application: configured from Django settings, with the queues defined in worker.queues."""

from __future__ import annotations

import os

from celery import Celery

from worker.queues import QUEUES, TASK_ROUTES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "context1_web.settings")

app = Celery("context1_web")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = QUEUES
app.conf.task_default_queue = "default"
app.conf.task_routes = TASK_ROUTES
# Each feature package keeps its Celery tasks in its own tasks.py; installed apps (the benchmarks) are found too.
app.autodiscover_tasks(
    [
        "research.platform",
        "research.corpora",
        "research.runs",
        "research.schedules",
        "research.web_sources",
        "research.webhooks",
        "research.corpus_health",
    ]
)
app.autodiscover_tasks()
