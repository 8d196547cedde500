"""The sweeper: runs whose worker died are re-queued (then restarted visibly) or, out of attempts, failed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from research.models import Run, RunEvent, RunStatus
from research.protocol.events import RunStarted, TurnStarted
from research.runs import services as runs
from research.runs import sweeper
from research.runs.execution import run_execute
from research.runs.lease import run_claim
from research.runs.sink import JournalSink
from tests.research.runs.conftest import seqs, types

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def enqueued(monkeypatch) -> list[int]:  # type: ignore[no-untyped-def]
    sent: list[int] = []
    monkeypatch.setattr(sweeper, "run_enqueue", sent.append)
    return sent


def _crash_after_events(run: Run, count: int) -> None:
    """What a worker killed mid-run leaves: some events stored, status running, a lease that expires."""
    claim = run_claim(run_id=run.pk)
    assert claim is not None
    sink = JournalSink(claim).start()
    sink.record(RunStarted(question=run.question, rollouts=1, budget=32768))
    for turn in range(1, count):
        sink.record(TurnStarted(rollout=0, turn=turn))
    sink.close()
    Run.objects.filter(pk=run.pk).update(claimed_until=timezone.now() - timedelta(seconds=1))


def test_it_requeues_a_run_whose_worker_died_and_the_restart_finishes_it(  # type: ignore[no-untyped-def]
    corpus, start_run, enqueued, settings
) -> None:
    settings.RUN_MAX_ATTEMPTS = 3
    run = start_run([corpus], rollouts=1)
    _crash_after_events(run, 3)
    report = sweeper.run_sweep()
    assert report.requeued == [run.pk]
    assert enqueued == [run.pk]
    run.refresh_from_db()
    assert run.status == RunStatus.QUEUED
    assert "attempt 1" in run.status_reason
    assert run.lease_owner == ""
    assert types(run)[-1] == "run_requeued"

    assert run_execute(run_id=run.pk) == "finished"
    run.refresh_from_db()
    assert run.status == RunStatus.FINISHED
    assert run.attempts == 2
    numbers = seqs(run)
    assert numbers == list(range(1, len(numbers) + 1))
    restarted = RunEvent.objects.get(run=run, type="run_restarted")
    assert restarted.seq == 5
    assert restarted.payload["superseded_through"] == 4
    assert "attempt 1" in restarted.payload["reason"]
    later = RunEvent.objects.filter(run=run, seq__gt=restarted.seq)
    assert set(later.values_list("attempt", flat=True)) == {2}
    assert later.first().type == "run_started"
    assert types(run)[-3:] == ["run_finished", "writing_started", "report_written"]


def test_it_fails_a_run_out_of_attempts_with_the_reason(corpus, start_run, enqueued, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RUN_MAX_ATTEMPTS = 1
    run = start_run([corpus])
    _crash_after_events(run, 2)
    report = sweeper.run_sweep()
    assert report.failed == [run.pk]
    assert enqueued == []
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "lost 1 times" in run.status_reason
    assert run.finished_at is not None
    failed = RunEvent.objects.get(run=run, type="run_failed")
    assert failed.payload["error"] == run.status_reason
    assert seqs(run) == [1, 2, 3]


def test_a_run_cancelled_before_its_worker_died_ends_cancelled_not_requeued(  # type: ignore[no-untyped-def]
    corpus, start_run, enqueued, settings
) -> None:
    settings.RUN_MAX_ATTEMPTS = 3
    run = start_run([corpus], rollouts=1)
    _crash_after_events(run, 2)
    Run.objects.filter(pk=run.pk).update(cancel_requested=True, cancel_reason="wrong company")
    report = sweeper.run_sweep()
    assert report.cancelled == [run.pk]
    assert report.requeued == []
    assert enqueued == []
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED
    assert run.status_reason == "wrong company"
    assert run.finished_at is not None
    assert run.lease_owner == ""
    assert types(run)[-1] == "run_cancelled"
    assert RunEvent.objects.get(run=run, type="run_cancelled").payload["reason"] == "wrong company"


def test_it_leaves_live_and_finished_runs_alone(corpus, start_run, enqueued) -> None:  # type: ignore[no-untyped-def]
    live, finished = start_run([corpus]), start_run([corpus])
    assert run_claim(run_id=live.pk) is not None
    Run.objects.filter(pk=finished.pk).update(status=RunStatus.FINISHED, claimed_until=None)
    report = sweeper.run_sweep()
    assert report.requeued == report.failed == report.reenqueued == report.cancelled == []
    assert Run.objects.get(pk=live.pk).status == RunStatus.RUNNING


def test_it_enqueues_again_a_run_queued_for_too_long(corpus, start_run, enqueued, settings) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus])
    long_ago = timezone.now() - timedelta(seconds=settings.RUN_LEASE_SECONDS * sweeper.STALE_QUEUED_LEASES + 5)
    Run.objects.filter(pk=run.pk).update(enqueued_at=long_ago)
    assert sweeper.run_sweep().reenqueued == [run.pk]
    assert enqueued == [run.pk]
    assert sweeper.run_sweep().reenqueued == []  # enqueued_at was bumped


def test_the_periodic_sweep_is_scheduled_on_the_default_queue(settings) -> None:  # type: ignore[no-untyped-def]
    from context1_web.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["sweep-runs"]
    assert entry["task"] == "research.tasks.sweep_runs"
    assert entry["schedule"] == settings.RUN_SWEEP_SECONDS
    assert app.amqp.router.route({}, entry["task"])["queue"].name == "default"
    assert runs.RUN_TASK == "research.tasks.run_execute"
