"""Investigations, their schedules and share links over the API, as the pages allow them: list and read what the
member may read; save a run as an investigation, delete one (its author or an owner, when no run of it is going);
set or remove its schedule (with a webhook for each of its runs); create, list and revoke its share links (its
author or an owner). Reading needs ``runs:read``, changing ``runs:write``."""

from __future__ import annotations

from datetime import time
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest
from ninja import Router, Status

from research.api.auth import require, same_workspace
from research.api.errors import Problem
from research.api.runs import run_out
from research.api.schemas import (
    InvestigationDetail,
    InvestigationIn,
    InvestigationOut,
    NewShareLinkOut,
    ScheduleIn,
    ScheduleOut,
    ShareLinkIn,
    ShareLinkOut,
)
from research.api.tokens import Access
from research.investigations import selectors as investigations
from research.investigations import services as investigation_services
from research.models import ApiScope, Investigation, Schedule, ShareLink
from research.platform.mail import absolute
from research.runs import selectors as runs
from research.schedules import services as schedules
from research.sharing import selectors as sharing
from research.sharing import services as sharing_services
from research.webhooks.services import webhook_attach, webhook_shown, webhook_validate
from research.workspaces import access as rights

router = Router(tags=["investigations"])
LISTED = 200


def _investigation_out(investigation: Investigation, *, scheduled: bool) -> dict[str, Any]:
    return {
        "id": investigation.pk,
        "title": investigation.title,
        "template": investigation.template,
        "notes": investigation.notes,
        "tags": list(investigation.tags),
        "created_by": investigation.created_by.get_username() if investigation.created_by else None,
        "created_at": investigation.created_at,
        "last_activity_at": investigation.last_activity_at,
        "archived": investigation.archived_at is not None,
        "scheduled": scheduled,
    }


def _schedule_out(schedule: Schedule | None, viewer_id: int) -> dict[str, Any] | None:
    if schedule is None:
        return None
    return {
        "frequency": schedule.frequency,
        "time_of_day": schedule.time_of_day.strftime("%H:%M") if schedule.time_of_day else None,
        "weekdays": list(schedule.weekdays),
        "cron": schedule.cron,
        "timezone": schedule.timezone,
        "notify": schedule.notify,
        "paused": schedule.paused,
        "paused_reason": schedule.paused_reason,
        "next_run_at": schedule.next_run_at,
        "last_fired_at": schedule.last_fired_at,
        "webhook_url": webhook_shown(schedule.webhook_url, full=schedule.created_by_id == viewer_id),
    }


def _link_out(link: ShareLink) -> dict[str, Any]:
    fields = ("label", "created_at", "expires_at", "revoked_at", "include_internal", "access_count", "last_accessed_at")
    return {"id": link.pk, "run_id": link.run_id, **{name: getattr(link, name) for name in fields}}


def _investigation(request: HttpRequest, investigation_id: int, scope: str) -> tuple[Access, Investigation]:
    access = require(request, scope)
    found = investigations.investigation_get(membership=access.membership, investigation_id=investigation_id)
    return access, found


@router.get("/investigations", response=list[InvestigationOut], summary="The investigations the member may read")
def investigation_list(request: HttpRequest, archived: bool = False) -> list[dict[str, Any]]:
    access = require(request, ApiScope.RUNS_READ)
    found = investigations.investigation_list(
        membership=access.membership, filters=investigations.ListFilter(archived=archived)
    )
    page = list(found[:LISTED])
    scheduled = set(Schedule.objects.filter(investigation__in=page).values_list("investigation_id", flat=True))
    return [_investigation_out(investigation, scheduled=investigation.pk in scheduled) for investigation in page]


@router.post(
    "/workspaces/{slug}/investigations", response={201: InvestigationDetail}, summary="Save a run as an investigation"
)
def investigation_create(request: HttpRequest, slug: str, body: InvestigationIn) -> Status[dict[str, Any]]:
    access = require(request, ApiScope.RUNS_WRITE)
    same_workspace(access, slug)
    run = runs.run_get(membership=access.membership, run_id=body.run_id)
    investigation = investigation_services.investigation_create(actor=access.membership, run=run, title=body.title)
    return Status(201, _detail(investigation, access.membership.user_id))


def _detail(investigation: Investigation, viewer_id: int) -> dict[str, Any]:
    schedule = Schedule.objects.filter(investigation=investigation).first()
    return {
        **_investigation_out(investigation, scheduled=schedule is not None),
        "runs": [run_out(run, viewer_id) for run in investigations.investigation_runs(investigation=investigation)],
        "schedule": _schedule_out(schedule, viewer_id),
    }


@router.get("/investigations/{investigation_id}", response=InvestigationDetail, summary="An investigation")
def investigation_detail(request: HttpRequest, investigation_id: int) -> dict[str, Any]:
    access, investigation = _investigation(request, investigation_id, ApiScope.RUNS_READ)
    return _detail(investigation, access.membership.user_id)


@router.delete("/investigations/{investigation_id}", response={204: None}, summary="Delete an investigation")
def investigation_delete(request: HttpRequest, investigation_id: int) -> Status[None]:
    """With its runs and their reports (never a document); 409 while one of its runs is going."""
    access, investigation = _investigation(request, investigation_id, ApiScope.RUNS_WRITE)
    try:
        investigation_services.investigation_delete(actor=access.membership, investigation=investigation)
    except ValidationError as error:
        raise Problem("conflict", " ".join(error.messages)) from None
    return Status(204, None)


# --- its schedule --------------------------------------------------------------------------------------------------


def _time(text: str) -> time | None:
    if not text:
        return None
    try:
        return time.fromisoformat(text)
    except ValueError:
        raise ValidationError({"time_of_day": "Give the time of day as HH:MM, e.g. 07:30."}) from None


@router.put(
    "/investigations/{investigation_id}/schedule", response=ScheduleOut, summary="Set the investigation's schedule"
)
def schedule_put(request: HttpRequest, investigation_id: int, body: ScheduleIn) -> dict[str, Any] | None:
    """Create or change it (its next run computed from now); ``webhook_url`` and ``webhook_secret`` announce the
    end of each of its runs, an empty ``webhook_url`` removes the webhook."""
    access, investigation = _investigation(request, investigation_id, ApiScope.RUNS_WRITE)
    if errors := webhook_validate(url=body.webhook_url, secret=body.webhook_secret):
        raise ValidationError(errors)
    with transaction.atomic():
        schedule = schedules.schedule_save(
            actor=access.membership,
            investigation=investigation,
            frequency=body.frequency,
            time_of_day=_time(body.time_of_day),
            weekdays=body.weekdays,
            cron=body.cron,
            timezone_name=body.timezone,
            notify=body.notify,
        )
        webhook_attach(owner=schedule, url=body.webhook_url, secret=body.webhook_secret)
    return _schedule_out(schedule, access.membership.user_id)


@router.delete(
    "/investigations/{investigation_id}/schedule", response={204: None}, summary="Remove the investigation's schedule"
)
def schedule_delete(request: HttpRequest, investigation_id: int) -> Status[None]:
    access, investigation = _investigation(request, investigation_id, ApiScope.RUNS_WRITE)
    schedule = Schedule.objects.filter(investigation=investigation).first()
    if schedule is None:
        raise Problem("not-found", "This investigation has no schedule.")
    schedules.schedule_delete(actor=access.membership, schedule=schedule)
    return Status(204, None)


# --- its share links -----------------------------------------------------------------------------------------------


def _manage(access: Access, investigation: Investigation) -> None:
    if not rights.can_manage(membership=access.membership, investigation=investigation):
        raise PermissionDenied("Only the investigation's author or a workspace owner may see and make its links.")


@router.get(
    "/investigations/{investigation_id}/share-links",
    response=list[ShareLinkOut],
    summary="The investigation's share links",
)
def share_link_list(request: HttpRequest, investigation_id: int) -> list[dict[str, Any]]:
    access, investigation = _investigation(request, investigation_id, ApiScope.RUNS_READ)
    require(request, ApiScope.REPORTS_READ)  # a link shows the report: reading its links needs reading reports
    _manage(access, investigation)
    return [_link_out(link) for link in sharing.share_links_of(investigation=investigation)]


@router.post(
    "/investigations/{investigation_id}/share-links",
    response={201: NewShareLinkOut},
    summary="Share a finished run of the investigation by link",
)
def share_link_create(request: HttpRequest, investigation_id: int, body: ShareLinkIn) -> Status[dict[str, Any]]:
    """Anyone holding the link reads the run's report until it expires or is revoked; ``url`` is shown only here."""
    access, investigation = _investigation(request, investigation_id, ApiScope.RUNS_WRITE)
    require(request, ApiScope.REPORTS_READ)  # anyone holding the link reads the report: so must the token
    run = runs.run_get(membership=access.membership, run_id=body.run_id)
    made = sharing_services.share_link_create(
        actor=access.membership,
        investigation=investigation,
        run=run,
        expires_at=body.expires_at,
        label=body.label,
        include_internal=body.include_internal,
    )
    return Status(201, {**_link_out(made.link), "url": absolute(f"/s/{made.token}/")})


@router.delete("/share-links/{link_id}", response={204: None}, summary="Revoke a share link")
def share_link_revoke(request: HttpRequest, link_id: int) -> Status[None]:
    access = require(request, ApiScope.RUNS_WRITE)
    link = ShareLink.objects.select_related("investigation").filter(pk=link_id).first()
    if (
        link is None
        or link.investigation.workspace_id != access.membership.workspace_id
        or not rights.can_read(membership=access.membership, investigation=link.investigation)
    ):
        raise Problem("not-found", "Nothing here, or nothing this token may see.")
    sharing_services.share_link_revoke(actor=access.membership, link=link)
    return Status(204, None)
