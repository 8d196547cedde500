"""The routine sweeper's lines stay out of the console; other tasks' lines and every failure stay in."""

from __future__ import annotations

import logging

import pytest
from celery.app import trace

import worker.signals  # noqa: F401  (installs the filter, as `python -m worker` does)


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records]


def test_routine_sweeps_are_not_logged_but_other_tasks_and_failures_are(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    sweep = {"name": "research.tasks.sweep_runs", "id": "s1", "runtime": 0.01, "return_value": None}
    ingest = {**sweep, "name": "research.tasks.ingest_file", "id": "i1"}
    for context in (sweep, ingest):  # the very calls Celery makes
        logging.getLogger("celery.worker.strategy").info(trace.LOG_RECEIVED, context)
        trace.info(trace.LOG_SUCCESS, context)
    logging.getLogger("celery.beat").info("Scheduler: Sending due task %s (%s)", "sweep-runs", sweep["name"])
    logging.getLogger("celery.app.trace").error(
        trace.LOG_FAILURE, {**sweep, "description": "raised unexpected", "exc": "OperationalError()"}
    )
    assert _lines(caplog) == [
        "Task research.tasks.ingest_file[i1] received",
        "Task research.tasks.ingest_file[i1] succeeded in 0.01s: None",
        "Task research.tasks.sweep_runs[s1] raised unexpected: OperationalError()",
    ]


def test_bm25s_debug_lines_stay_out_and_refresh_tasks_are_routine(caplog: pytest.LogCaptureFixture) -> None:
    import bm25s  # sets its logger to DEBUG on import

    caplog.set_level(logging.DEBUG)
    logging.getLogger(bm25s.__name__).debug("Building index from tokens")
    logging.getLogger("bm25s").warning("a real warning")
    refresh = {"name": "research.tasks.ingest_refresh_sparse", "id": "r1", "runtime": 0.01, "return_value": None}
    logging.getLogger("celery.worker.strategy").info(trace.LOG_RECEIVED, refresh)
    assert _lines(caplog) == ["a real warning"]
