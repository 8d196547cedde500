"""When a schedule fires: daily at a time, weekly on chosen days at a time, or a five-field cron expression, in an
IANA time zone. Every kind becomes one cron expression that ``croniter`` walks on the zone's wall clock (naive
local times), each then placed in the zone with ``fold=0``: a 02:30 that an autumn night repeats fires once (the
first time), a 02:30 that a spring night skips fires an hour later by the clock (03:30, as if the clock had not
moved yet). A schedule never fires more often than ``min_interval``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from cron_descriptor import get_description
from croniter import CroniterError, croniter

DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MIN_INTERVAL = timedelta(hours=1)
_SAMPLE = 24  # fire times checked against the minimum interval


class ScheduleError(ValueError):
    """A schedule that cannot fire as asked; the message says which field and why."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


@dataclass(frozen=True)
class Spec:
    frequency: str  # daily | weekly | cron
    at: time | None = None  # daily and weekly
    weekdays: tuple[int, ...] = field(default=())  # weekly: 0 (Monday) to 6 (Sunday)
    cron: str = ""
    timezone: str = "UTC"

    def expression(self) -> str:
        """The schedule as a five-field cron expression (cron counts weekdays from Sunday = 0)."""
        if self.frequency == "cron":
            return " ".join(self.cron.split())
        if self.at is None:
            raise ScheduleError("time_of_day", "Choose the time of day it runs at.")
        minute_hour = f"{self.at.minute} {self.at.hour}"
        if self.frequency == "daily":
            return f"{minute_hour} * * *"
        if self.frequency == "weekly":
            if not self.weekdays:
                raise ScheduleError("weekdays", "Choose at least one day of the week.")
            return f"{minute_hour} * * {','.join(str((day + 1) % 7) for day in sorted(set(self.weekdays)))}"
        raise ScheduleError("frequency", f"Unknown frequency {self.frequency!r}.")


@cache
def _zone_names() -> frozenset[str]:
    """The IANA names this machine knows (reading them walks the zoneinfo folders: about 12 ms, so once)."""
    return frozenset(available_timezones())


def zone(name: str) -> ZoneInfo:
    if name not in _zone_names():
        raise ScheduleError("timezone", f"Unknown time zone {name!r}: use an IANA name such as Europe/Berlin.")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError("timezone", f"Unknown time zone {name!r}.") from None


# croniter's "R" (a random time) and "H" (a hashed one): times that move from one tick to the next, so the minimum
# interval checked on a sample of ticks does not hold ("R * * * *" fired 1 to 55 minutes apart). "MAR", "THU" pass.
_RANDOM_OR_HASHED = re.compile(r"(?i)(?<![A-Z])[RH](?![A-Z])")


def _wall_clock(spec: Spec, after: datetime) -> croniter:
    expression = spec.expression()
    if len(expression.split()) != 5 or not croniter.is_valid(expression):
        raise ScheduleError(
            "cron", f"“{expression}” is not a five-field cron expression (minute hour day month weekday)."
        )
    if _RANDOM_OR_HASHED.search(expression):
        raise ScheduleError(
            "cron", f"“{expression}”: random (R) and hashed (H) times are not accepted; write the times."
        )
    try:
        return croniter(expression, after.astimezone(zone(spec.timezone)).replace(tzinfo=None))
    except CroniterError as error:
        raise ScheduleError("cron", f"“{expression}”: {error}") from None


def upcoming(spec: Spec, after: datetime, count: int) -> list[datetime]:
    """The next ``count`` times strictly after ``after`` (aware) at which the schedule fires, in UTC."""
    where = zone(spec.timezone)
    walk = _wall_clock(spec, after)
    times: list[datetime] = []
    for _ in range(count * 2 + 2):  # a wall time that maps before ``after`` (a repeated hour) is passed over
        local: datetime = walk.get_next(datetime)
        fired = local.replace(tzinfo=where, fold=0).astimezone(UTC)
        if fired > (times[-1] if times else after):
            times.append(fired)
        if len(times) == count:
            break
    return times


def next_fire(spec: Spec, after: datetime) -> datetime:
    """The first time strictly after ``after`` (aware) at which the schedule fires, in UTC."""
    return upcoming(spec, after, 1)[0]


def validate(spec: Spec, now: datetime, *, min_interval: timedelta = MIN_INTERVAL) -> None:
    """Raise ``ScheduleError`` unless the schedule fires, and never twice within ``min_interval``."""
    zone(spec.timezone)
    try:
        times = upcoming(spec, now, _SAMPLE)
    except (CroniterError, StopIteration, OverflowError):
        raise ScheduleError("cron", "This cron expression never fires.") from None
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    if gaps and min(gaps) < min_interval:
        hours = min_interval.total_seconds() / 3600
        raise ScheduleError(
            "cron" if spec.frequency == "cron" else "frequency",
            f"A schedule may run at most once every {hours:g} hour{'s' if hours != 1 else ''}; this one runs "
            f"{int(min(gaps).total_seconds() // 60)} minutes apart.",
        )


def describe(spec: Spec) -> str:
    """In words: "Every day at 08:00 (Europe/Berlin)", "Mondays and Thursdays at 07:30 (UTC)", a cron's words."""
    where = f" ({spec.timezone})"
    if spec.frequency == "cron":
        try:
            return f"{get_description(spec.expression())}{where} · cron {spec.expression()}"
        except Exception:  # cron-descriptor refuses some expressions croniter accepts
            return f"cron {spec.expression()}{where}"
    at = spec.at.strftime("%H:%M") if spec.at else "?"
    if spec.frequency == "daily":
        return f"Every day at {at}{where}"
    days = [f"{DAY_NAMES[day]}s" for day in sorted(set(spec.weekdays))]
    listed = days[0] if len(days) == 1 else ", ".join(days[:-1]) + f" and {days[-1]}"
    return f"{listed} at {at}{where}"
