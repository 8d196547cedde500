"""Sending Celery tasks by name: services enqueue work without importing task modules (no import cycles)."""

from __future__ import annotations

from context1_web.celery import app


def task_send(name: str, *args: object, countdown: float | None = None) -> None:
    """Queue the task ``name`` with positional ``args``; worker/queues.py routes it by its name."""
    app.send_task(name, args=args, countdown=countdown)
