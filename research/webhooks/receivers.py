"""The webhooks' answer to a run's end: record its announcement and send it once committed."""

from __future__ import annotations

from typing import Any

from research.models import Run
from research.runs.signals import run_ended
from research.webhooks.services import delivery_on_end


def deliver_on_run_end(sender: type[Run], *, run_id: int, status: str, **_: Any) -> None:
    delivery_on_end(run_id=run_id, status=status)


def connect_signals() -> None:
    run_ended.connect(deliver_on_run_end, sender=Run, dispatch_uid="webhooks.deliver_on_run_end")
