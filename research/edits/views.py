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

from research.edits import services
from research.edits.forms import NoteForm, OverrideForm, PinForm, StrikeForm
from research.models import Membership, Run
from research.workspaces import access
from research.workspaces.requests import WorkspaceRequest, workspace_view

EDITED = "report-edited"  # the htmx event the run page's report listens for


def _answered(
    request: WorkspaceRequest, slug: str, run_id: int, form: forms.Form, act: Callable[[Run, dict[str, Any]], object]
) -> HttpResponse:
    run = access.readable_run(membership=request.membership, run_id=run_id)
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


Act = Callable[[Membership, Run, dict[str, Any]], object]


def _edit_view(form_class: type[forms.Form], act: Act) -> Callable[..., HttpResponse]:
    """A POST view that checks ``form_class`` and calls ``act(member, run, cleaned data)``."""

    @login_required
    @require_POST
    @workspace_view
    def view(request: WorkspaceRequest, /, slug: str, run_id: int, **extra: Any) -> HttpResponse:
        actor = request.membership
        form = form_class(request.POST)
        return _answered(request, slug, run_id, form, lambda run, data: act(actor, run, data | extra))

    return view


class _Nothing(forms.Form):
    pass


edit_strike = _edit_view(
    StrikeForm,
    lambda actor, run, data: services.claim_strike(actor=actor, run=run, key=data["key"], reason=data["reason"]),
)
edit_pin = _edit_view(
    PinForm, lambda actor, run, data: services.claim_pin(actor=actor, run=run, key=data["key"], facet=data["facet"])
)
edit_note = _edit_view(
    NoteForm, lambda actor, run, data: services.note_add(actor=actor, run=run, facet=data["facet"], text=data["text"])
)
edit_override = _edit_view(
    OverrideForm,
    lambda actor, run, data: services.verdict_override(
        actor=actor, run=run, criterion=data["criterion"], verdict=data["verdict"], note=data["note"]
    ),
)
edit_undo = _edit_view(
    _Nothing, lambda actor, run, data: services.edit_undo(actor=actor, run=run, edit_id=data["edit_id"])
)
