"""Firing due schedules (Celery beat's tick, every ``SCHEDULE_TICK_SECONDS``).

A due schedule is claimed by one conditional UPDATE that moves ``next_run_at`` from the due time it read to the
next one (healthchecks' pattern: exactly one row changes for exactly one tick), and its fire is stored once per
due time (a unique constraint), so two ticks at once, or a tick that beat repeats, never start a run twice. This
works alike on SQLite and PostgreSQL; ``SELECT ... FOR UPDATE SKIP LOCKED`` would need PostgreSQL. A schedule
that missed several due times (beat was down) fires once, then follows its next time from now.

A fire starts a run of the investigation with its saved configuration, as the member who last saved or resumed
the schedule, unless a run of the investigation is still queued or running (the fire is skipped and recorded).
A fire that cannot start (that member lost their rights, the corpora are gone, the investigation is archived)
pauses the schedule with the reason and tells the investigation's editors. A worker that dies mid-run is the run
machinery's business (lease, sweeper, restart); the digest follows whenever the run ends.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from research.investigations.services import investigation_rerun
from research.models import (
    TERMINAL_RUN_STATUSES,
    FireOutcome,
    Investigation,
    Membership,
    Run,
    Schedule,
    ScheduleFire,
)
from research.notifications.services import notifications_create
from research.platform.queue import task_send
from research.platform.quotas import OverLimit
from research.schedules.services import schedule_pause_for, spec_of
from research.schedules.task_names import REPORT_DIGEST
from research.schedules.timing import ScheduleError, next_fire
from research.workspaces import access

logger = logging.getLogger(__name__)

DIGEST_CATCH_UP = timedelta(days=2)  # scheduled runs that ended this recently without a digest get one
DIGEST_GRACE = timedelta(minutes=10)  # their own worker's digest task may wait this long in a busy queue


@dataclass
class Tick:
    started: list[int] = field(default_factory=list)  # run ids
    skipped: list[int] = field(default_factory=list)  # schedule ids
    failed: list[int] = field(default_factory=list)  # schedule ids (now paused)
    lost: int = 0  # due schedules another tick fired first
    digests: list[int] = field(default_factory=list)  # run ids whose missing digest was enqueued


def schedules_fire(*, now: datetime | None = None, limit: int = 1000) -> Tick:
    """Fire every due schedule once, then enqueue the digests of scheduled runs that ended without one."""
    now = now or timezone.now()
    tick = Tick()
    due = Schedule.objects.filter(paused=False, next_run_at__lte=now).order_by("next_run_at", "id")
    for schedule_id, due_at in list(due.values_list("pk", "next_run_at")[:limit]):
        if due_at is None:  # the filter says so; the type does not
            continue
        try:
            _fire(schedule_id, due_at, now, tick)
        except Exception as error:  # a bug in one schedule must not stop the others, tick after tick
            logger.exception("schedule %s could not fire", schedule_id)
            broken = Schedule.objects.select_related("investigation__workspace").filter(pk=schedule_id).first()
            if broken is not None:
                _pause(broken, f"it could not fire ({type(error).__name__}); an editor can resume it")
            tick.failed.append(schedule_id)
    _digests_catch_up(now, tick)
    if tick.skipped or tick.failed:
        logger.info("schedules: skipped %s, paused %s", tick.skipped, tick.failed)
    return tick


def _fire(schedule_id: int, due_at: datetime, now: datetime, tick: Tick) -> None:
    schedule = Schedule.objects.select_related("investigation", "created_by").filter(pk=schedule_id).first()
    if schedule is None:
        return
    try:
        following: datetime | None = next_fire(spec_of(schedule), now)
    except ScheduleError:
        following = None  # stored before a time zone went away: fire this once, then pause below
    try:
        with transaction.atomic():
            claimed = Schedule.objects.filter(pk=schedule_id, paused=False, next_run_at=due_at).update(
                next_run_at=following, last_fired_at=now, paused=following is None
            )
            if claimed != 1:
                tick.lost += 1
                return
            outcome, reason, run = _start(schedule)
            ScheduleFire.objects.create(schedule=schedule, due_at=due_at, outcome=outcome, reason=reason, run=run)
    except IntegrityError:  # this due time was fired already (the constraint is the second guard)
        tick.lost += 1
        return
    if following is None:
        schedule_pause_for(schedule=schedule, reason="its next time can no longer be computed: edit and save it")
    if outcome == FireOutcome.STARTED and run is not None:
        tick.started.append(run.pk)
    elif outcome == FireOutcome.SKIPPED:
        tick.skipped.append(schedule_id)
    else:
        _pause(schedule, reason)
        tick.failed.append(schedule_id)


def _busy(investigation: Investigation) -> Run | None:
    """The investigation's oldest run still queued or running (a fire then does not start another)."""
    going = Run.objects.filter(investigation=investigation).exclude(status__in=TERMINAL_RUN_STATUSES)
    return going.order_by("created_at").first()


def _start(schedule: Schedule) -> tuple[str, str, Run | None]:
    investigation = schedule.investigation
    busy = _busy(investigation)
    if busy is not None:
        started = timezone.localtime(busy.created_at).strftime("%Y-%m-%d %H:%M")
        return FireOutcome.SKIPPED, f"run {busy.pk} (started {started}) is still {busy.status}", None
    actor = Membership.objects.filter(workspace_id=investigation.workspace_id, user=schedule.created_by).first()
    who = schedule.created_by.get_username() if schedule.created_by else "the member who set it up"
    if actor is None or not access.can_rerun(membership=actor, investigation=investigation):
        return FireOutcome.FAILED, f"{who} may no longer run this investigation; an editor can resume it", None
    try:
        run = investigation_rerun(actor=actor, investigation=investigation, schedule=schedule)
    except OverLimit as error:  # the runs are at a limit: this time is skipped with the reason, the schedule goes on
        return FireOutcome.SKIPPED, error.message_text, None
    except (ValidationError, PermissionDenied) as error:
        messages = error.messages if isinstance(error, ValidationError) else [str(error)]
        return FireOutcome.FAILED, " ".join(messages), None
    return FireOutcome.STARTED, "", run


class RunStillGoing(ValidationError):
    """Run now refused: a run of the investigation is still queued or running (or was started this moment)."""


def schedule_run_now(*, actor: Membership, schedule: Schedule) -> Run:
    """Start the schedule's run now (the card's "Run now"), as ``actor``, the way a due time starts it: the
    investigation's saved configuration through ``investigation_rerun``, refused while a run of it is still going,
    within the member's and the workspace's run limits (``OverLimit``); recorded as a fire of this moment, and its
    digest follows when it ends. The schedule's next times do not move. Only who may manage the schedule may
    (PermissionDenied); a refusal is a ValidationError with the reason and never pauses the schedule."""
    investigation = schedule.investigation
    if not access.can_rerun(membership=actor, investigation=investigation):
        raise PermissionDenied("Only the investigation's editors who may start runs can run its schedule now.")
    busy = _busy(investigation)
    if busy is not None:
        raise RunStillGoing(f"Not started: run {busy.pk} of this investigation is still {busy.status}.")
    now = timezone.now()
    with transaction.atomic():
        # one conditional UPDATE, as a tick claims a due time: of two presses at once, one starts a run
        claimed = Schedule.objects.filter(pk=schedule.pk, last_fired_at=schedule.last_fired_at).update(
            last_fired_at=now
        )
        if claimed != 1:
            raise RunStillGoing("Not started: the schedule was started at this moment already.")
        run = investigation_rerun(actor=actor, investigation=investigation, schedule=schedule)
        reason = f"run now by {actor.user.get_username()}"
        ScheduleFire.objects.create(schedule=schedule, due_at=now, outcome=FireOutcome.STARTED, reason=reason, run=run)
    schedule.last_fired_at = now
    return run


def _pause(schedule: Schedule, reason: str) -> None:
    schedule_pause_for(schedule=schedule, reason=reason)
    investigation = schedule.investigation
    editors = [
        m.user_id
        for m in Membership.objects.filter(workspace_id=investigation.workspace_id)
        if access.can_edit(membership=m, investigation=investigation)
    ]
    url = reverse(
        "investigation_page", kwargs={"slug": investigation.workspace.slug, "investigation_id": investigation.pk}
    )
    notifications_create(
        users=editors,
        investigation=investigation,
        title=f"Schedule paused: {investigation.title}",
        text=f"It could not start its run: {reason}.",
        url=f"{url}#schedule",
    )


def _digests_catch_up(now: datetime, tick: Tick) -> None:
    """Scheduled runs that ended without a digest (the worker that ended them died before sending it)."""
    ended = Run.objects.filter(
        schedule__isnull=False,
        status__in=TERMINAL_RUN_STATUSES,
        digest__isnull=True,
        finished_at__gte=now - DIGEST_CATCH_UP,
        finished_at__lte=now - DIGEST_GRACE,  # the run's own worker enqueued it when it ended
    )
    for run_id in ended.values_list("pk", flat=True):
        transaction.on_commit(functools.partial(task_send, REPORT_DIGEST, run_id))
        tick.digests.append(run_id)
