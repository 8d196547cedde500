"""Claiming runs: one claim wins, a live lease blocks others, an expired one is taken over visibly."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from research.models import Run, RunEvent, RunStatus
from research.protocol.events import TurnStarted
from research.runs.lease import Claim, run_claim
from research.runs.sink import JournalSink
from tests.research.runs.conftest import at_once, seqs, types

pytestmark = pytest.mark.django_db(transaction=True)


def _expire(run: Run) -> None:
    Run.objects.filter(pk=run.pk).update(claimed_until=timezone.now() - timedelta(seconds=1))


def test_it_claims_a_queued_run_once_among_concurrent_claims(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus])
    won = [claim for claim in at_once(run_claim, 6, run_id=run.pk) if claim is not None]
    assert len(won) == 1
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING
    assert run.lease_owner == won[0].owner
    assert run.attempts == 1
    assert run.claimed_until > timezone.now()


def test_a_live_lease_is_not_claimable_and_an_expired_one_is(corpus, start_run, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RUN_MAX_ATTEMPTS = 3
    run = start_run([corpus])
    first = run_claim(run_id=run.pk)
    assert first is not None
    assert run_claim(run_id=run.pk) is None
    _expire(run)
    second = run_claim(run_id=run.pk)
    assert second is not None
    assert second.attempt == 2
    assert second.owner != first.owner
    restarted = RunEvent.objects.get(run=run, type="run_restarted")
    assert restarted.attempt == 2
    assert restarted.payload["attempt"] == 2
    assert restarted.payload["superseded_through"] == 0
    assert "lease" in restarted.payload["reason"]


def test_a_run_out_of_attempts_is_not_claimed(corpus, start_run, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RUN_MAX_ATTEMPTS = 1
    run = start_run([corpus])
    assert run_claim(run_id=run.pk) is not None
    _expire(run)
    assert run_claim(run_id=run.pk) is None


def test_finished_and_cancelled_runs_are_not_claimed(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    finished, cancelled = start_run([corpus]), start_run([corpus])
    Run.objects.filter(pk=finished.pk).update(status=RunStatus.FINISHED)
    Run.objects.filter(pk=cancelled.pk).update(status=RunStatus.CANCELLED)
    assert run_claim(run_id=finished.pk) is None
    assert run_claim(run_id=cancelled.pk) is None


def _wait(condition, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_the_sink_renews_the_lease_and_notices_a_cancel(corpus, start_run, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RUN_LEASE_SECONDS = 60  # renewed about every second
    run = start_run([corpus])
    claim = run_claim(run_id=run.pk)
    assert claim is not None
    Run.objects.filter(pk=run.pk).update(claimed_until=timezone.now() + timedelta(seconds=1))
    sink = JournalSink(claim).start()
    try:
        assert _wait(lambda: Run.objects.get(pk=run.pk).claimed_until > timezone.now() + timedelta(seconds=30))
        assert not sink.cancelled()
        Run.objects.filter(pk=run.pk).update(cancel_requested=True)
        assert _wait(sink.cancelled)
        assert not sink.lost.is_set()
    finally:
        sink.close()


def test_an_attempt_that_lost_its_lease_writes_nothing_more_and_stops(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    """The writer notices at its next heartbeat (about a second) and drops what the attempt still emits."""
    run = start_run([corpus])
    first = run_claim(run_id=run.pk)
    assert first is not None
    sink = JournalSink(first).start()
    sink.record(TurnStarted(rollout=0, turn=1))
    assert _wait(lambda: seqs(run) == [1])
    _expire(run)
    second = run_claim(run_id=run.pk)  # another worker took over (this one was presumed dead)
    assert second is not None
    assert _wait(sink.cancelled)
    assert sink.lost.is_set()
    sink.record(TurnStarted(rollout=0, turn=2))
    sink.close()
    assert types(run) == ["turn_started", "run_restarted"]
    assert Run.objects.get(pk=run.pk).lease_owner == second.owner


def test_the_sink_stores_events_with_the_claims_attempt(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus])
    claim = run_claim(run_id=run.pk)
    assert isinstance(claim, Claim)
    sink = JournalSink(claim).start()
    for turn in range(1, 451):  # likely more than one round
        sink.record(TurnStarted(rollout=0, turn=turn))
    sink.close()
    assert seqs(run) == list(range(1, 451))
    assert set(RunEvent.objects.filter(run=run).values_list("attempt", flat=True)) == {1}
    assert [e.payload["turn"] for e in RunEvent.objects.filter(run=run).order_by("seq")] == list(range(1, 451))


def test_one_writer_stores_several_runs_events_each_in_order(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    runs = [start_run([corpus]) for _ in range(3)]
    sinks = [JournalSink(claim).start() for claim in (run_claim(run_id=run.pk) for run in runs) if claim]
    assert len(sinks) == 3
    for turn in range(1, 101):
        for sink in sinks:
            sink.record(TurnStarted(rollout=0, turn=turn))
    for sink in sinks:
        sink.close()
    for run in runs:
        assert [e.payload["turn"] for e in RunEvent.objects.filter(run=run).order_by("seq")] == list(range(1, 101))
        assert seqs(run) == list(range(1, 101))


def test_a_cancel_requested_before_the_claim_is_seen_at_once(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus])
    assert run_claim(run_id=run.pk) is not None
    _expire(run)
    Run.objects.filter(pk=run.pk).update(cancel_requested=True, cancel_reason="stop")  # while no worker held it
    claim = run_claim(run_id=run.pk)
    assert claim is not None
    sink = JournalSink(claim).start()
    assert sink.cancelled()
    sink.close()
