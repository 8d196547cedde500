"""Celery tasks of research runs: thin wrappers that take ids and call the runs services.

They live apart from ``research.tasks`` because they reach the harness (through
``research.runs.execution``), and the web side imports ``research.tasks`` to enqueue ingestion;
the web side enqueues runs by task name (``runs.services.run_enqueue``). The names keep the
``research.tasks.`` prefix, which is what routes them (worker/queues.py).
"""

from __future__ import annotations

from celery import shared_task

from research.runs import execution, stream_bench, sweeper


@shared_task(name="research.tasks.run_execute", acks_late=True, ignore_result=True)
def run_execute(run_id: int) -> None:
    """Claim and run a research run; a duplicate or redelivered message finds it claimed and does nothing."""
    execution.run_execute(run_id=run_id)


@shared_task(name="research.tasks.sweep_runs", ignore_result=True)
def sweep_runs() -> None:
    """Celery beat's periodic sweep (on the default queue, so busy run workers never delay it)."""
    sweeper.run_sweep()


@shared_task(name="research.tasks.run_bench_stream", acks_late=True, ignore_result=True)
def run_bench_stream(run_id: int, events: int, interval_ms: float, durable: bool) -> None:
    """``manage.py bench_events`` only: stream synthetic events of a benchmark run through a sink."""
    stream_bench.stream_events(run_id=run_id, events=events, interval_ms=interval_ms, durable=durable)
