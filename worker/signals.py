"""Celery signal handlers: warm up expensive resources once per worker process, before tasks arrive; keep
routine housekeeping out of the console."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from celery.signals import worker_process_init, worker_ready
from django.conf import settings
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)
# Tasks whose success is not news: the sweeper runs every RUN_SWEEP_SECONDS, the schedules' tick every
# SCHEDULE_TICK_SECONDS (a fire that skips or pauses logs its own line), a BM25 refresh is queued after every file
# (most find nothing to do; a real rebuild logs its own line), and a file's vector stage asks again every 2 s
# while files wait for their words (its stage changes are logged). Their "received" / "succeeded" / "sending due
# task" lines would bury ingestion and run progress in `make run`.
ROUTINE_TASKS = frozenset(
    {
        "research.tasks.sweep_runs",
        "research.tasks.schedules_fire",
        "research.tasks.ingest_refresh_sparse",
        "research.tasks.ingest_refine",
        "research.tasks.sweep_ingest",
    }
)
ROUTINE_LOGGERS = ("celery.app.trace", "celery.worker.strategy", "celery.beat")
# Libraries that log at DEBUG whatever the configured level (bm25s sets its own logger to DEBUG on import, so
# its "Building index from tokens" reached the console); a filter survives that, a level would not.
CHATTY_LIBRARY_LOGGERS = ("bm25s",)


class RoutineTaskFilter(logging.Filter):
    """Drop INFO and DEBUG lines about a routine task; its warnings and failures still show."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        args = record.args
        values = args.values() if isinstance(args, Mapping) else args if isinstance(args, tuple) else ()
        return not any(isinstance(value, str) and value in ROUTINE_TASKS for value in values)


class DebugFilter(logging.Filter):
    """Drop DEBUG lines unless LOG_LEVEL asks for them."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG or settings.LOG_LEVEL == "DEBUG"


for _name in ROUTINE_LOGGERS:
    logging.getLogger(_name).addFilter(RoutineTaskFilter())
for _name in CHATTY_LIBRARY_LOGGERS:
    logging.getLogger(_name).addFilter(DebugFilter())


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
