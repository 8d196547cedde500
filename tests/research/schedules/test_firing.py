"""Firing due schedules under a controlled clock: once per due time whatever the ticks, skipped while a run is
still going, paused with the reason when it cannot start, never while paused."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, time

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from research.investigations import services as investigations
from research.models import (
    FireOutcome,
    Investigation,
    Membership,
    Notification,
    Role,
    Run,
    RunStatus,
    Schedule,
    ScheduleFire,
)
from research.schedules import firing, services
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db

MONDAY_6 = datetime(2026, 12, 7, 6, 0, tzinfo=UTC)
MONDAY_7 = datetime(2026, 12, 7, 7, 0, tzinfo=UTC)


def _scheduled(team: Team, **changes: object) -> Schedule:
    """A weekly Monday 08:00 Berlin (07:00 UTC) schedule, saved by its author on the Monday at 06:00 UTC."""
    run = finished_run(team, claims=["Halvorix opened a Berlin office."])
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    arguments: dict[str, object] = {
        "frequency": "weekly",
        "time_of_day": time(8, 0),
        "weekdays": [0],
        "timezone_name": "Europe/Berlin",
        **changes,
    }
    with time_machine.travel(MONDAY_6, tick=False):
        return services.schedule_save(actor=team.author, investigation=investigation, **arguments)  # type: ignore[arg-type]


def test_a_due_schedule_starts_one_run_as_its_owner_and_moves_to_its_next_time(team: Team) -> None:
    schedule = _scheduled(team)
    assert schedule.next_run_at == MONDAY_7
    with time_machine.travel(datetime(2026, 12, 7, 6, 59, 59, tzinfo=UTC), tick=False):
        assert firing.schedules_fire().started == []  # not yet due
    with time_machine.travel(datetime(2026, 12, 7, 7, 0, 20, tzinfo=UTC), tick=False):
        tick = firing.schedules_fire()
    assert len(tick.started) == 1
    run = Run.objects.get(pk=tick.started[0])
    assert run.schedule_id == schedule.pk
    assert run.investigation_id == schedule.investigation_id
    assert run.created_by == team.author.user
    assert run.status == RunStatus.QUEUED
    assert run.subject == "Halvorix"
    assert run.template == "competitor"
    schedule.refresh_from_db()
    assert schedule.next_run_at == datetime(2026, 12, 14, 7, 0, tzinfo=UTC)
    fire = ScheduleFire.objects.get()
    assert (fire.due_at, fire.outcome, fire.run_id) == (MONDAY_7, FireOutcome.STARTED, run.pk)


def test_ticks_repeated_or_at_once_fire_a_due_time_once(team: Team) -> None:
    schedule = _scheduled(team)
    with time_machine.travel(datetime(2026, 12, 7, 7, 1, tzinfo=UTC), tick=False):
        first, again = firing.schedules_fire(), firing.schedules_fire()
        # Two ticks that read the same due time: only one conditional UPDATE can move it.
        stale_reader = firing.Tick()
        firing._fire(schedule.pk, MONDAY_7, datetime(2026, 12, 7, 7, 1, tzinfo=UTC), stale_reader)
    assert len(first.started) == 1
    assert again.started == []
    assert stale_reader.started == []
    assert stale_reader.lost == 1
    assert Run.objects.filter(schedule=schedule).count() == 1
    assert ScheduleFire.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_ticks_in_two_threads_start_one_run(team: Team) -> None:
    schedule = _scheduled(team)
    results: list[firing.Tick] = []
    barrier = threading.Barrier(2)

    def tick() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(firing.schedules_fire(now=datetime(2026, 12, 7, 7, 1, tzinfo=UTC)))
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == 2
    assert sorted(len(result.started) for result in results) == [0, 1]
    assert Run.objects.filter(schedule=schedule).count() == 1


def test_a_fire_while_a_run_is_still_going_is_skipped_and_recorded(team: Team) -> None:
    schedule = _scheduled(team)
    busy = investigations.investigation_rerun(actor=team.author, investigation=schedule.investigation)
    Run.objects.filter(pk=busy.pk).update(status=RunStatus.RUNNING)
    with time_machine.travel(datetime(2026, 12, 7, 7, 0, 5, tzinfo=UTC), tick=False):
        tick = firing.schedules_fire()
    assert tick.started == []
    assert tick.skipped == [schedule.pk]
    fire = ScheduleFire.objects.get()
    assert fire.outcome == FireOutcome.SKIPPED
    assert f"run {busy.pk}" in fire.reason
    assert "still running" in fire.reason
    schedule.refresh_from_db()
    assert schedule.next_run_at == datetime(2026, 12, 14, 7, 0, tzinfo=UTC)
    assert not schedule.paused
    Run.objects.filter(pk=busy.pk).update(status=RunStatus.FINISHED)
    with time_machine.travel(datetime(2026, 12, 14, 7, 0, 5, tzinfo=UTC), tick=False):
        assert len(firing.schedules_fire().started) == 1  # the next due time runs


def test_a_schedule_whose_owner_lost_the_right_to_run_it_pauses_and_tells_the_editors(team: Team) -> None:
    schedule = _scheduled(team)
    Membership.objects.filter(pk=team.author.pk).update(role=Role.VIEWER)
    with time_machine.travel(datetime(2026, 12, 7, 7, 0, 5, tzinfo=UTC), tick=False):
        tick = firing.schedules_fire()
    assert tick.failed == [schedule.pk]
    assert tick.started == []
    schedule.refresh_from_db()
    assert schedule.paused
    assert schedule.next_run_at is None
    assert "may no longer run this investigation" in schedule.paused_reason
    fire = ScheduleFire.objects.get()
    assert fire.outcome == FireOutcome.FAILED
    told = set(Notification.objects.values_list("user__username", flat=True))
    # The investigation's editors: its author (still, though a workspace viewer now) and the owner; the investigation
    # is shared with the workspace as viewers, so the others read it but are not told.
    assert told == {"ada", "olga"}
    with time_machine.travel(datetime(2026, 12, 14, 7, 0, 5, tzinfo=UTC), tick=False):
        assert firing.schedules_fire().started == []  # paused: nothing more


def test_an_archived_investigation_cannot_start_and_its_schedule_pauses(team: Team) -> None:
    schedule = _scheduled(team)
    Investigation.objects.filter(pk=schedule.investigation_id).update(archived_at=MONDAY_6)
    tick = firing.schedules_fire(now=datetime(2026, 12, 7, 7, 0, 5, tzinfo=UTC))
    assert tick.failed == [schedule.pk]
    schedule.refresh_from_db()
    assert schedule.paused
    assert "archived" in schedule.paused_reason


def test_missed_due_times_fire_once_then_follow_the_clock(team: Team) -> None:
    schedule = _scheduled(team, frequency="daily")
    three_days_late = datetime(2026, 12, 10, 9, 30, tzinfo=UTC)
    tick = firing.schedules_fire(now=three_days_late)
    assert len(tick.started) == 1
    schedule.refresh_from_db()
    assert schedule.next_run_at == datetime(2026, 12, 11, 7, 0, tzinfo=UTC)


def test_pausing_stops_it_and_resuming_takes_it_over_from_now(team: Team) -> None:
    schedule = _scheduled(team)
    services.schedule_pause(actor=team.author, schedule=schedule, paused=True)
    assert firing.schedules_fire(now=datetime(2026, 12, 7, 7, 5, tzinfo=UTC)).started == []
    with time_machine.travel(datetime(2026, 12, 8, 12, 0, tzinfo=UTC), tick=False):
        services.schedule_pause(actor=team.owner, schedule=schedule, paused=False)
    schedule.refresh_from_db()
    assert schedule.next_run_at == datetime(2026, 12, 14, 7, 0, tzinfo=UTC)
    assert schedule.created_by == team.owner.user  # whoever resumes it, runs it


def test_only_editors_who_may_run_it_schedule_it(team: Team) -> None:
    run = finished_run(team, claims=["x."])
    investigation = investigations.investigation_create(actor=team.author, run=run)
    with pytest.raises(PermissionDenied):
        services.schedule_save(actor=team.viewer, investigation=investigation, frequency="daily", time_of_day=time(8))
    with pytest.raises(ValidationError) as refused:
        services.schedule_save(actor=team.author, investigation=investigation, frequency="cron", cron="*/10 * * * *")
    assert "cron" in refused.value.message_dict


def test_a_schedule_that_breaks_is_paused_and_the_others_still_fire(team: Team, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    broken, fine = _scheduled(team), _scheduled(team)
    real_start = firing._start

    def start(schedule: Schedule):  # type: ignore[no-untyped-def]
        if schedule.pk == broken.pk:
            raise RuntimeError("a bug")
        return real_start(schedule)

    monkeypatch.setattr(firing, "_start", start)
    tick = firing.schedules_fire(now=datetime(2026, 12, 7, 7, 0, 5, tzinfo=UTC))
    assert len(tick.started) == 1
    assert tick.failed == [broken.pk]
    broken.refresh_from_db()
    assert broken.paused
    assert "could not fire (RuntimeError)" in broken.paused_reason
    assert Run.objects.filter(schedule=fine).count() == 1


def test_saving_a_schedule_the_product_paused_resumes_it_and_a_manual_pause_stays(team: Team) -> None:
    schedule = _scheduled(team)
    services.schedule_pause_for(schedule=schedule, reason="its corpora are gone")
    arguments = {"frequency": "daily", "time_of_day": time(9), "timezone_name": "UTC"}
    saved = services.schedule_save(actor=team.author, investigation=schedule.investigation, **arguments)  # type: ignore[arg-type]
    assert not saved.paused
    assert saved.paused_reason == ""
    assert saved.next_run_at is not None
    services.schedule_pause(actor=team.author, schedule=saved, paused=True)
    again = services.schedule_save(actor=team.author, investigation=schedule.investigation, **arguments)  # type: ignore[arg-type]
    assert again.paused
    assert again.next_run_at is None
