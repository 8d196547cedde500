"""Probe item 6: croniter's "R" (random) and "H" (hashed) times moved from tick to tick, so a schedule's minimum
interval, checked on a sample of ticks, did not hold ("R * * * *" fired 1 to 55 minutes apart)."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from research.schedules.timing import ScheduleError, Spec, validate

NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("cron", ["R * * * *", "0 R * * *", "r 9 * * *", "H * * * *", "H(0-29) 9 * * *"])
def test_random_or_hashed_times_are_refused_with_the_reason(cron: str) -> None:
    with pytest.raises(ScheduleError, match=r"random|not a five-field") as refused:
        validate(Spec("cron", cron=cron), NOW)
    assert refused.value.field == "cron"


@pytest.mark.parametrize("cron", ["0 9 * * THU", "0 9 1 MAR *", "30 8 * * MON-FRI"])
def test_month_and_day_names_that_hold_the_letters_still_pass(cron: str) -> None:
    validate(Spec("cron", cron=cron), NOW)
    validate(Spec("daily", at=time(9, 0), timezone="Europe/Paris"), NOW)
