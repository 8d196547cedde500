"""Sending Celery tasks by name: services enqueue work without importing task modules (no import cycles).

The app is Celery's current one: the project's (context1_web/celery.py), which every process that loads the
settings has created (context1_web/__init__.py imports it), so the product does not import its project.
"""

from __future__ import annotations

from celery import current_app


def task_send(name: str, *args: object, countdown: float | None = None) -> None:
    """Queue the task ``name`` with positional ``args``; worker/queues.py routes it by its name."""
    current_app.send_task(name, args=args, countdown=countdown)
