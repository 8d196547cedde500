"""Analysts' edits from the run page: strike or pin a claim, add a note, override a verdict, undo.

Each answers htmx with 204 and the ``report-edited`` event (the page's report fetches itself again, edits applied),
or 422 with the error where the form is; without htmx, back to the run's report (an error as a message).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from research.edits import selectors, services
from research.edits.forms import NoteForm, OverrideForm, PinForm, StrikeForm
from research.models import Run
from research.workspaces.requests import WorkspaceRequest, workspace_view

EDITED = "report-edited"  # the htmx event the run page's report listens for


def _answered(
    request: WorkspaceRequest, slug: str, run_id: int, form: forms.Form, act: Callable[[Run, dict[str, Any]], object]
) -> HttpResponse:
    run = selectors.run_get(membership=request.membership, run_id=run_id)
    error = ""
    if not form.is_valid():
        error = " ".join(str(message) for messages_ in form.errors.values() for message in messages_)
    else:
        try:
            act(run, form.cleaned_data)
        except ValidationError as problem:
            error = " ".join(problem.messages)
    if request.htmx:
        if error:
            return HttpResponse(format_html('<p class="error" role="alert">{}</p>', error), status=422)
        return HttpResponse(status=204, headers={"HX-Trigger": EDITED})
    if error:
        messages.error(request, error)
    return redirect(reverse("run_page", kwargs={"slug": slug, "run_id": run.pk}) + "#answer")


@login_required
@require_POST
@workspace_view
def edit_strike(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    actor = request.membership
    return _answered(
        request,
        slug,
        run_id,
        StrikeForm(request.POST),
        lambda run, data: services.claim_strike(actor=actor, run=run, key=data["key"], reason=data["reason"]),
    )


@login_required
@require_POST
@workspace_view
def edit_pin(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    actor = request.membership
    return _answered(
        request,
        slug,
        run_id,
        PinForm(request.POST),
        lambda run, data: services.claim_pin(actor=actor, run=run, key=data["key"], facet=data["facet"]),
    )


@login_required
@require_POST
@workspace_view
def edit_note(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    actor = request.membership
    return _answered(
        request,
        slug,
        run_id,
        NoteForm(request.POST),
        lambda run, data: services.note_add(actor=actor, run=run, facet=data["facet"], text=data["text"]),
    )


@login_required
@require_POST
@workspace_view
def edit_override(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    actor = request.membership
    return _answered(
        request,
        slug,
        run_id,
        OverrideForm(request.POST),
        lambda run, data: services.verdict_override(
            actor=actor, run=run, criterion=data["criterion"], verdict=data["verdict"], note=data["note"]
        ),
    )


class _Nothing(forms.Form):
    pass


@login_required
@require_POST
@workspace_view
def edit_undo(request: WorkspaceRequest, slug: str, run_id: int, edit_id: int) -> HttpResponse:
    actor = request.membership
    return _answered(
        request,
        slug,
        run_id,
        _Nothing(request.POST),
        lambda run, data: services.edit_undo(actor=actor, run=run, edit_id=edit_id),
    )
