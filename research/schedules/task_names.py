"""The schedules' Celery tasks by name (services and the runs' end enqueue them without importing the tasks)."""

from __future__ import annotations

SCHEDULES_FIRE = "research.tasks.schedules_fire"  # Celery beat, every SCHEDULE_TICK_SECONDS (default queue)
REPORT_DIGEST = "research.tasks.report_digest"  # one scheduled run's digest (the `reports` queue)
