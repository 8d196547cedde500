"""Run views (JSON for now; the live page renders on top of these): start, estimate, list, detail, events, cancel.

Every view resolves the workspace through the user's membership (404 for non-members); viewers may
read, owners and editors may start and cancel (403 otherwise). Every answer is JSON (``json_view``): a
logged-out client gets 401, an unknown workspace or run 404, a refused action 403, each ``{"error": ...}``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from research.models import Run, RunTemplate
from research.platform.http import json_view
from research.platform.quotas import OverLimit, with_retry_after
from research.runs import limits, selectors, services
from research.runs.forms import RunForm
from research.workspaces.requests import WorkspaceRequest, workspace_view


def run_summary(run: Run) -> dict[str, Any]:
    slug = run.workspace.slug
    return {
        "id": run.pk,
        "question": run.question,
        "template": run.template,
        "corpora": [{"slug": corpus.slug, "name": corpus.name} for corpus in run.corpora.all()],
        "rollouts": run.rollouts,
        "budget": run.budget,
        "max_turns": run.max_turns,
        "status": run.status,
        "status_reason": run.status_reason,
        "attempts": run.attempts,
        "cancel_requested": run.cancel_requested,
        "cancel_reason": run.cancel_reason,
        "last_seq": run.last_seq,
        "total_tokens": run.total_tokens,
        "created_at": run.created_at.isoformat(),
        "started_at": run.started_at.isoformat() if run.started_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "urls": {
            "detail": reverse("run_detail_json", kwargs={"slug": slug, "run_id": run.pk}),
            "events": reverse("run_events", kwargs={"slug": slug, "run_id": run.pk}),
            "cancel": reverse("run_cancel", kwargs={"slug": slug, "run_id": run.pk}),
            "socket": f"/ws/runs/{run.pk}/",
        },
    }


def _errors(error: ValidationError) -> dict[str, list[str]]:
    return {field: [str(message) for message in messages] for field, messages in error.message_dict.items()}


def error_json(error: ValidationError) -> JsonResponse:
    """422 with the errors by field; a limit's refusal is 429 with ``Retry-After`` and ``retry_after``."""
    body: dict[str, object] = {"errors": _errors(error)}
    if isinstance(error, OverLimit) and error.retry_after is not None:
        body["retry_after"] = error.retry_after
    return with_retry_after(JsonResponse(body, status=422), error)


def _number(request: HttpRequest, name: str, default: int) -> int:
    try:
        return int(request.GET.get(name, default))
    except ValueError:
        raise ValidationError({name: "Enter a whole number."}) from None


@json_view
@require_POST
@workspace_view
def run_start(request: WorkspaceRequest, slug: str) -> JsonResponse:
    membership = request.membership
    data = request.POST.copy()  # what a script leaves out takes the run form's defaults
    data.setdefault("template", str(RunTemplate.QUESTION))
    for name, limit in (("rollouts", limits.ROLLOUTS), ("budget", limits.BUDGET), ("max_turns", limits.MAX_TURNS)):
        data.setdefault(name, str(limit.default))
    form = RunForm(data, workspace=membership.workspace)
    if not form.is_valid():
        return JsonResponse({"errors": {field: list(messages) for field, messages in form.errors.items()}}, status=422)
    try:
        run = services.run_start(actor=membership, **form.run_inputs())
    except ValidationError as error:
        return error_json(error)
    return JsonResponse(run_summary(run), status=201)


@json_view
@require_GET
@workspace_view
def run_estimate(request: WorkspaceRequest, slug: str) -> JsonResponse:
    try:
        estimate = services.run_cost(
            rollouts=_number(request, "rollouts", limits.ROLLOUTS.default),
            budget=_number(request, "budget", limits.BUDGET.default),
            max_turns=_number(request, "max_turns", limits.MAX_TURNS.default),
        )
    except ValidationError as error:
        return JsonResponse({"errors": _errors(error)}, status=422)
    return JsonResponse(estimate.as_dict())


@json_view
@require_GET
@workspace_view
def run_list(request: WorkspaceRequest, slug: str) -> JsonResponse:
    membership = request.membership
    return JsonResponse({"runs": [run_summary(run) for run in selectors.run_list(membership=membership)]})


@json_view
@require_GET
@workspace_view
def run_detail_json(request: WorkspaceRequest, slug: str, run_id: int) -> JsonResponse:
    membership = request.membership
    run = selectors.run_get(membership=membership, run_id=run_id)
    return JsonResponse({**run_summary(run), "result": run.result})


@json_view
@require_GET
@workspace_view
def run_events(request: WorkspaceRequest, slug: str, run_id: int) -> JsonResponse:
    """Stored events after ``?after=N`` (a page at a time): the polling alternative to the socket."""
    membership = request.membership
    run = selectors.run_get(membership=membership, run_id=run_id)
    try:
        after = max(0, _number(request, "after", 0))
    except ValidationError as error:
        return JsonResponse({"errors": _errors(error)}, status=422)
    events = selectors.run_events_after(run_id=run.pk, after=after, limit=selectors.EVENTS_PAGE)
    return JsonResponse(
        {
            "events": [event.message() for event in events],
            "status": run.status,
            "last_seq": run.last_seq,
            "more": len(events) == selectors.EVENTS_PAGE,
        }
    )


@json_view
@require_POST
@workspace_view
def run_cancel(request: WorkspaceRequest, slug: str, run_id: int) -> JsonResponse:
    membership = request.membership
    run = selectors.run_get(membership=membership, run_id=run_id)
    try:
        run = services.run_cancel(actor=membership, run=run, reason=request.POST.get("reason", ""))
    except ValidationError as error:
        return JsonResponse({"errors": {"__all__": error.messages}}, status=409)
    return JsonResponse(run_summary(run))
