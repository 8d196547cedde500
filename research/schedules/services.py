"""Write-side operations on schedules: set one up or change it, pause and resume, delete, and each member's
choice to receive its e-mails or not. Editors of the investigation manage its schedule; its runs use the rights
of the member who last saved or resumed it (shown on the page)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from research.models import Frequency, Investigation, Membership, NotifyMode, Schedule, ScheduleMute
from research.schedules.timing import ScheduleError, Spec, next_fire, validate
from research.workspaces import access


def spec_of(schedule: Schedule) -> Spec:
    return Spec(
        frequency=schedule.frequency,
        at=schedule.time_of_day,
        weekdays=tuple(int(day) for day in schedule.weekdays or ()),
        cron=schedule.cron,
        timezone=schedule.timezone,
    )


def min_interval() -> timedelta:
    return timedelta(minutes=settings.SCHEDULE_MIN_INTERVAL_MINUTES)


def _require_editor(actor: Membership, investigation: Investigation) -> None:
    if not access.can_rerun(membership=actor, investigation=investigation):
        raise PermissionDenied(
            "Scheduling needs the editor role on the investigation and a workspace role that starts runs."
        )


def schedule_save(
    *,
    actor: Membership,
    investigation: Investigation,
    frequency: str,
    time_of_day: time | None = None,
    weekdays: Sequence[int] = (),
    cron: str = "",
    timezone_name: str = "UTC",
    notify: str = NotifyMode.CHANGED,
    now: datetime | None = None,
) -> Schedule:
    """Create the investigation's schedule or change it; its next run is computed from now. Saving makes the
    actor the member whose rights its runs use, and resumes a schedule the product paused (a member paused one
    stays paused until resumed)."""
    _require_editor(actor, investigation)
    if investigation.archived_at is not None:
        raise ValidationError("This investigation is archived: restore it to schedule it.")
    if frequency not in Frequency.values:
        raise ValidationError({"frequency": f"Unknown frequency {frequency!r}."})
    if notify not in NotifyMode.values:
        raise ValidationError({"notify": f"Unknown choice {notify!r}."})
    now = now or timezone.now()
    spec = Spec(frequency, time_of_day, tuple(sorted(set(weekdays))), " ".join(cron.split()), timezone_name.strip())
    try:
        validate(spec, now, min_interval=min_interval())
        following = next_fire(spec, now)
    except ScheduleError as error:
        raise ValidationError({error.field: str(error)}) from None
    schedule, _ = Schedule.objects.get_or_create(investigation=investigation)
    schedule.created_by = actor.user
    schedule.frequency, schedule.time_of_day, schedule.weekdays = spec.frequency, spec.at, list(spec.weekdays)
    schedule.cron = spec.cron if spec.frequency == Frequency.CRON else ""
    schedule.timezone, schedule.notify = spec.timezone, notify
    if schedule.paused_reason:  # the product paused it; saving it (the fix) resumes it
        schedule.paused, schedule.paused_reason = False, ""
    schedule.next_run_at = None if schedule.paused else following
    fields = ["created_by", "frequency", "time_of_day", "weekdays", "cron", "timezone", "notify", "paused"]
    schedule.save(update_fields=[*fields, "paused_reason", "next_run_at"])  # never the tick's last_fired_at
    return schedule


def schedule_pause(*, actor: Membership, schedule: Schedule, paused: bool, now: datetime | None = None) -> Schedule:
    """Pause (no more runs) or resume (the next run computed from now; the actor's rights from then on)."""
    _require_editor(actor, schedule.investigation)
    if paused:
        schedule.paused, schedule.next_run_at = True, None
    else:
        if schedule.investigation.archived_at is not None:
            raise ValidationError("This investigation is archived: restore it before resuming its schedule.")
        try:
            following = next_fire(spec_of(schedule), now or timezone.now())
        except ScheduleError as error:
            raise ValidationError({error.field: str(error)}) from None
        schedule.paused, schedule.paused_reason, schedule.next_run_at = False, "", following
        schedule.created_by = actor.user
    schedule.save(update_fields=["paused", "paused_reason", "next_run_at", "created_by"])
    return schedule


def schedule_delete(*, actor: Membership, schedule: Schedule) -> None:
    """Remove the schedule; its runs and digests stay with the investigation."""
    _require_editor(actor, schedule.investigation)
    schedule.delete()


def schedule_pause_for(*, schedule: Schedule, reason: str) -> None:
    """The product pauses a schedule it cannot run (its member lost access, its corpora are gone, ...)."""
    Schedule.objects.filter(pk=schedule.pk).update(paused=True, paused_reason=reason, next_run_at=None)


def schedule_mute(*, user: User, schedule: Schedule, muted: bool) -> None:
    """Stop (or restart) the schedule's e-mails to ``user``; the digests still show in the app."""
    if muted:
        ScheduleMute.objects.get_or_create(schedule=schedule, user=user)
    else:
        ScheduleMute.objects.filter(schedule=schedule, user=user).delete()
