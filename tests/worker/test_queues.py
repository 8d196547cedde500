from __future__ import annotations

from context1_web.celery import app
from worker.__main__ import worker_argv
from worker.queues import QUEUE_NAMES


def _queue_for(task_name: str) -> str:
    route = app.amqp.router.route({}, task_name)
    return str(route["queue"].name)


def test_it_routes_each_task_family_to_its_own_queue() -> None:
    assert _queue_for("research.tasks.ingest_file") == "ingest"
    assert _queue_for("research.tasks.run_research") == "runs"
    assert _queue_for("research.tasks.report_generate") == "reports"
    assert _queue_for("research.tasks.system_ping") == "default"


def test_it_declares_the_separate_queues() -> None:
    assert set(QUEUE_NAMES) == {"default", "ingest", "runs", "reports"}
    assert {queue.name for queue in app.conf.task_queues} == set(QUEUE_NAMES)


def test_the_worker_consumes_every_queue_with_late_acks() -> None:
    argv = worker_argv(pool="threads", concurrency=3)
    assert argv[argv.index("--queues") + 1] == "default,ingest,runs,reports"
    assert argv[argv.index("--pool") + 1] == "threads"
    assert app.conf.task_acks_late is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_time_limit > app.conf.task_soft_time_limit
    assert app.conf.broker_transport_options["visibility_timeout"] > app.conf.task_time_limit


def test_the_run_tasks_are_registered_and_routed() -> None:
    app.loader.import_default_modules()
    assert {"research.tasks.run_execute", "research.tasks.sweep_runs"} <= set(app.tasks)
    assert _queue_for("research.tasks.run_execute") == "runs"
    assert _queue_for("research.tasks.sweep_runs") == "default"  # never stuck behind long runs
    assert app.tasks["research.tasks.run_execute"].acks_late is True


def test_the_schedule_tasks_are_registered_and_routed() -> None:
    app.loader.import_default_modules()
    assert {"research.tasks.schedules_fire", "research.tasks.report_digest"} <= set(app.tasks)
    assert _queue_for("research.tasks.schedules_fire") == "default"  # the tick never waits behind runs
    assert _queue_for("research.tasks.report_digest") == "reports"
    assert app.tasks["research.tasks.report_digest"].acks_late is True
    assert app.conf.beat_schedule["fire-schedules"]["task"] == "research.tasks.schedules_fire"


def test_the_web_page_task_is_registered_and_goes_to_the_ingest_queue() -> None:
    app.loader.import_default_modules()
    assert "research.tasks.ingest_url" in app.tasks
    assert _queue_for("research.tasks.ingest_url") == "ingest"
    assert app.tasks["research.tasks.ingest_url"].acks_late is True
