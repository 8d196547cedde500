"""Schedule views: the Schedule card of an investigation's page (set up, change, pause, resume, delete, send a
test e-mail, and each reader's own choice to receive its e-mails), a digest's page, and the unsubscribe page an
e-mail links to (``/unsubscribe/<signed token>/``; RFC 8058's one-click POST works without a session).

Every view resolves the investigation through what the member may read (404 otherwise); managing a schedule
needs the investigation's editor role and a workspace role that starts runs (403 otherwise).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from research.investigations.selectors import investigation_get, investigation_runs
from research.models import Investigation, Membership, Schedule
from research.platform.http import apply_errors, user_of
from research.platform.quotas import with_retry_after
from research.schedules import digests, firing, selectors, services
from research.schedules.forms import ScheduleForm
from research.schedules.panels import CARD, schedule_context
from research.workspaces import access
from research.workspaces.requests import WorkspaceRequest, workspace_view


def _of(request: WorkspaceRequest, slug: str, investigation_id: int) -> tuple[Membership, Investigation]:
    membership = request.membership
    return membership, investigation_get(membership=membership, investigation_id=investigation_id)


def _managed(request: WorkspaceRequest, slug: str, investigation_id: int) -> tuple[Membership, Investigation]:
    """The investigation, if the member may manage its schedule (403 otherwise, before anything else)."""
    membership, investigation = _of(request, slug, investigation_id)
    if not access.can_rerun(membership=membership, investigation=investigation):
        raise PermissionDenied("Only the investigation's editors who may start runs manage its schedule.")
    return membership, investigation


def _schedule(investigation: Investigation) -> Schedule:
    schedule = Schedule.objects.filter(investigation=investigation).select_related("investigation").first()
    if schedule is None:
        raise ValidationError("This investigation has no schedule.")
    return schedule


def _card(
    request: WorkspaceRequest, membership: Membership, investigation: Investigation, status: int = 200, **extra: Any
) -> HttpResponse:
    if not request.htmx:  # without JavaScript: back to the page, the outcome as a message
        if extra.get("message"):
            messages.info(request, str(extra["message"]))
        if extra.get("error"):
            messages.error(request, str(extra["error"]))
        kwargs = {"slug": membership.workspace.slug, "investigation_id": investigation.pk}
        return redirect(reverse("investigation_page", kwargs=kwargs) + "#schedule")
    return render(request, CARD, schedule_context(membership, investigation, **extra), status=status)


@login_required
@require_POST
@workspace_view
def schedule_save(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    membership, investigation = _of(request, slug, investigation_id)
    form = ScheduleForm(request.POST)
    if form.is_valid():
        try:
            services.schedule_save(actor=membership, investigation=investigation, **form.service_arguments())
        except ValidationError as error:
            if hasattr(error, "error_dict"):
                apply_errors(form, error)
            else:
                form.add_error(None, error)
        else:
            return _card(request, membership, investigation, message="Schedule saved.")
    if not request.htmx:
        context = {**schedule_context(membership, investigation, form=form), "standalone": True}
        return render(request, "research/schedule_form.html", context, status=422)
    return render(request, CARD, schedule_context(membership, investigation, form=form), status=422)


@login_required
@require_POST
@workspace_view
def schedule_pause(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    membership, investigation = _managed(request, slug, investigation_id)
    try:
        schedule = _schedule(investigation)
        paused = request.POST.get("paused") == "1"
        services.schedule_pause(actor=membership, schedule=schedule, paused=paused)
    except ValidationError as error:
        return _card(request, membership, investigation, status=422, error=" ".join(error.messages))
    return _card(request, membership, investigation, message="Paused." if paused else "Resumed.")


@login_required
@require_POST
@workspace_view
def schedule_delete(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    membership, investigation = _managed(request, slug, investigation_id)
    try:
        services.schedule_delete(actor=membership, schedule=_schedule(investigation))
    except ValidationError as error:
        return _card(request, membership, investigation, status=422, error=" ".join(error.messages))
    return _card(request, membership, investigation, message="Schedule removed; its runs and digests stay.")


@login_required
@require_POST
@workspace_view
def schedule_test_email(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    """Send the latest digest (or, before the first, what one would say now) to the member alone."""
    membership, investigation = _managed(request, slug, investigation_id)
    user = user_of(request)
    if not user.email:
        return _card(request, membership, investigation, status=422, error="Your account has no e-mail address.")
    digest = investigation.digests.order_by("-created_at", "-id").first()
    if digest is None:
        finished = [run for run in investigation_runs(investigation=investigation) if run.done]
        if not finished:
            error = "There is nothing to send yet: run the investigation once first."
            return _card(request, membership, investigation, status=422, error=error)
        digest = digests.digest_build(finished[0])
    schedule = _schedule(investigation)
    sent = digests.digest_test_email(digest=digest, user=user, schedule_id=schedule.pk)
    if sent.error:
        return _card(request, membership, investigation, status=422, error=f"Not sent: {sent.error}")
    return _card(request, membership, investigation, message=f"A test e-mail went to {user.email}.")


@login_required
@require_POST
@workspace_view
def schedule_run_now(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    """Start the schedule's run now, as a due time would (research/schedules/firing.py); the card links to it
    (without JavaScript: the run's page). A run still going answers 409, a run limit 429, with the reason."""
    membership, investigation = _managed(request, slug, investigation_id)
    try:
        run = firing.schedule_run_now(actor=membership, schedule=_schedule(investigation))
    except ValidationError as error:
        status = 409 if isinstance(error, firing.RunStillGoing) else 422
        response = _card(request, membership, investigation, status=status, error=" ".join(error.messages))
        return with_retry_after(response, error) if request.htmx else response  # (a redirect stays one)
    if not request.htmx:
        return redirect("run_page", slug=membership.workspace.slug, run_id=run.pk)
    return _card(request, membership, investigation, started_run=run)


@login_required
@require_POST
@workspace_view
def schedule_mute(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    """A reader's own choice: the schedule's e-mails or not (the digests still show in the app)."""
    membership, investigation = _of(request, slug, investigation_id)
    try:
        schedule = _schedule(investigation)
    except ValidationError as error:
        return _card(request, membership, investigation, status=422, error=" ".join(error.messages))
    muted = request.POST.get("muted") == "1"
    services.schedule_mute(user=user_of(request), schedule=schedule, muted=muted)
    message = "You no longer get its e-mails." if muted else "You get its e-mails again."
    return _card(request, membership, investigation, message=message)


@login_required
@require_GET
@workspace_view
def digest_page(request: WorkspaceRequest, slug: str, investigation_id: int, digest_id: int) -> HttpResponse:
    membership, investigation = _of(request, slug, investigation_id)
    digest = selectors.digest_get(investigation=investigation, digest_id=digest_id)
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "investigation": investigation,
        "digest": digest,
        "headline": digests.headline(digest),
        "view": selectors.digest_view(digest),
    }
    return render(request, "research/digest.html", context)


@csrf_exempt  # the signed token is the credential; mail clients' RFC 8058 one-click POST carries no CSRF token
@require_http_methods(["GET", "POST"])
def schedule_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows what the link is for and one button (mail scanners open links; only a POST unsubscribes)."""
    found = digests.unsubscribe_read(token)
    schedule = (
        Schedule.objects.select_related("investigation").filter(pk=found[0]).first() if found is not None else None
    )
    user = User.objects.filter(pk=found[1]).first() if found is not None else None
    if schedule is None or user is None:
        return render(request, "research/unsubscribe.html", {"gone": True}, status=404)
    if request.method == "POST":
        services.schedule_mute(user=user, schedule=schedule, muted=request.POST.get("resubscribe") != "1")
    muted = schedule.mutes.filter(user=user).exists()
    context = {"schedule": schedule, "investigation": schedule.investigation, "subscriber": user, "muted": muted}
    return render(request, "research/unsubscribe.html", context)
