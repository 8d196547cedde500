"""When schedules fire: daily, weekly, cron, in a time zone across daylight-saving changes; what is refused."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from research.schedules.timing import ScheduleError, Spec, describe, next_fire, upcoming, validate

BERLIN = "Europe/Berlin"


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def test_daily_fires_at_the_wall_clock_time_of_its_zone() -> None:
    spec = Spec("daily", at=time(8, 0), timezone=BERLIN)
    assert next_fire(spec, utc(2026, 12, 2, 6, 0)) == utc(2026, 12, 2, 7, 0)  # CET is UTC+1
    assert next_fire(spec, utc(2026, 12, 2, 7, 0)) == utc(2026, 12, 3, 7, 0)  # strictly after
    assert next_fire(spec, utc(2026, 7, 2, 5, 0)) == utc(2026, 7, 2, 6, 0)  # CEST is UTC+2


def test_across_daylight_saving_changes_it_keeps_the_local_time_and_fires_once() -> None:
    spec = Spec("daily", at=time(2, 30), timezone=BERLIN)
    # 29 March 2026: 02:00 jumps to 03:00, so 02:30 does not exist that night; it fires at 03:30 local.
    assert next_fire(spec, utc(2026, 3, 28, 23, 0)) == utc(2026, 3, 29, 1, 30)
    assert next_fire(spec, utc(2026, 3, 29, 1, 30)) == utc(2026, 3, 30, 0, 30)
    # 25 October 2026: 03:00 goes back to 02:00, so 02:30 happens twice; it fires once.
    times = upcoming(spec, utc(2026, 10, 24, 12, 0), 3)
    assert times == [utc(2026, 10, 25, 0, 30), utc(2026, 10, 26, 1, 30), utc(2026, 10, 27, 1, 30)]
    assert next_fire(spec, utc(2026, 10, 25, 1, 10)) == utc(2026, 10, 26, 1, 30)  # in the repeated hour


def test_weekly_fires_on_the_chosen_days_only() -> None:
    spec = Spec("weekly", at=time(7, 30), weekdays=(0, 3), timezone="UTC")  # Mondays and Thursdays
    times = upcoming(spec, utc(2026, 12, 2, 12, 0), 4)  # a Wednesday
    assert [t.strftime("%a %H:%M") for t in times] == ["Thu 07:30", "Mon 07:30", "Thu 07:30", "Mon 07:30"]
    assert describe(spec) == "Mondays and Thursdays at 07:30 (UTC)"


def test_cron_expressions_run_in_the_zone_and_are_described() -> None:
    spec = Spec("cron", cron="0 9 * * 1-5", timezone="America/New_York")
    assert next_fire(spec, utc(2026, 12, 4, 15, 0)) == utc(2026, 12, 7, 14, 0)  # Friday after 9 EST -> Monday
    assert "09:00" in describe(spec)
    assert "Monday through Friday" in describe(spec)


@pytest.mark.parametrize(
    ("spec", "field", "words"),
    [
        (Spec("cron", cron="*/5 * * * *"), "cron", "at most once every 1 hour"),
        (Spec("cron", cron="0 * * * * *"), "cron", "five-field"),
        (Spec("cron", cron="61 * * * *"), "cron", "five-field"),
        (Spec("cron", cron="@reboot"), "cron", "five-field"),
        (Spec("daily", at=time(8), timezone="Mars/Olympus"), "timezone", "Unknown time zone"),
        (Spec("weekly", at=time(8), weekdays=()), "weekdays", "at least one day"),
        (Spec("daily"), "time_of_day", "time of day"),
        (Spec("cron", cron="0 0 30 2 *"), "cron", "never fires"),
    ],
)
def test_what_cannot_fire_as_asked_is_refused_naming_the_field(spec: Spec, field: str, words: str) -> None:
    with pytest.raises(ScheduleError, match=words) as refused:
        validate(spec, utc(2026, 12, 2, 12, 0))
    assert refused.value.field == field


def test_the_minimum_interval_is_a_setting_not_a_constant() -> None:
    every_half_hour = Spec("cron", cron="*/30 * * * *")
    validate(every_half_hour, utc(2026, 12, 2), min_interval=timedelta(minutes=30))
    with pytest.raises(ScheduleError):
        validate(every_half_hour, utc(2026, 12, 2), min_interval=timedelta(minutes=31))


@given(
    at=st.times(),
    days=st.sets(st.integers(0, 6), min_size=1),
    zone=st.sampled_from(["UTC", BERLIN, "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]),
    start=st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC)),
)
def test_fire_times_always_move_forward_and_land_on_a_chosen_day(
    at: time, days: set[int], zone: str, start: datetime
) -> None:
    spec = Spec("weekly", at=at.replace(second=0, microsecond=0), weekdays=tuple(days), timezone=zone)
    times = upcoming(spec, start, 5)
    assert all(earlier < later for earlier, later in zip([start, *times], times, strict=False))
    from zoneinfo import ZoneInfo

    assert all(t.astimezone(ZoneInfo(zone)).weekday() in days for t in times)
