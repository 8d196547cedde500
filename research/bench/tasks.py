"""The benchmarks' Celery task: a worker streams a benchmark run's synthetic events (``manage.py bench_events``)."""

from __future__ import annotations

from celery import shared_task

from research.bench import event_stream

# The name keeps the ``research.tasks.run_`` prefix: it routes to the `runs` queue, like real runs.
BENCH_STREAM_TASK = "research.tasks.run_bench_stream"


@shared_task(name=BENCH_STREAM_TASK, acks_late=True, ignore_result=True)
def run_bench_stream(run_id: int, events: int, interval_ms: float, durable: bool) -> None:
    """Stream synthetic events of a benchmark run through the product's sink (or the baseline's)."""
    event_stream.stream_events(run_id=run_id, events=events, interval_ms=interval_ms, durable=durable)
