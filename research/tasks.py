"""Celery tasks: thin wrappers that take ids and call services."""

from __future__ import annotations

import socket

from celery import shared_task

from research.realtime import publish


@shared_task(name="research.tasks.system_ping", acks_late=True, ignore_result=True)
def system_ping(*, group: str, token: str) -> None:
    """Round trip probe: a worker on this task's queue publishes ``token`` to ``group`` (see `manage.py doctor`)."""
    publish(group, {"type": "ping", "token": token, "worker": socket.gethostname()})
