"""Celery tasks of the platform: the round-trip probe a worker answers on any queue."""

from __future__ import annotations

import socket

from celery import shared_task

from research.platform.realtime import publish


@shared_task(name="research.tasks.system_ping", acks_late=True, ignore_result=True)
def system_ping(*, group: str, token: str) -> None:
    """Round trip probe: a worker on this task's queue publishes ``token`` to ``group`` (the realtime stack test)."""
    publish(group, {"type": "ping", "token": token, "worker": socket.gethostname()})
