"""Celery signal handlers: warm up expensive resources once per worker process, before tasks arrive."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery.signals import worker_process_init, worker_ready
from django.conf import settings
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)


def run_warmups() -> None:
    """Call each callable named in settings.WORKER_WARMUP; a failure is logged and the worker goes on."""
    for dotted_path in settings.WORKER_WARMUP:
        started = time.perf_counter()
        try:
            import_string(dotted_path)()
        except Exception:
            logger.exception("warm-up %s failed; tasks that need it will report the error", dotted_path)
            continue
        logger.info("warm-up %s done in %.2fs", dotted_path, time.perf_counter() - started)


@worker_process_init.connect
def _on_process_init(**_: Any) -> None:
    # prefork: each child process warms its own copy.
    run_warmups()


@worker_ready.connect
def _on_ready(sender: Any = None, **_: Any) -> None:
    # threads/solo pools never fire worker_process_init; warm the single process here.
    if settings.WORKER_POOL != "prefork":
        run_warmups()
    queues = sorted(queue.name for queue in sender.app.amqp.queues.consume_from.values()) if sender else []
    logger.info("worker ready, consuming %s", ", ".join(queues))
