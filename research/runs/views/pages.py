"""Run pages (HTML): the run form with its estimate, run history, the live run page, its graph and documents.

Every view resolves the workspace through the user's membership (404 for non-members); viewers read,
owners and editors start and cancel (403 otherwise). The run page renders the stored events through
the same parts the socket sends (research/runs/live/fragments.py), then tails the socket after the last
event it rendered.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from research.corpora.viewer import chunks_shown
from research.demo.seed import demo_questions, workspace_has_demo_corpus
from research.edits import selectors as edits
from research.models import Membership, Run, RunStatus, RunTemplate
from research.platform.http import apply_errors
from research.platform.quotas import with_retry_after
from research.platform.submissions import submission_once, submission_token
from research.reporting.kinds import KINDS, kind_of, run_facets
from research.reporting.presenting import ReportView
from research.runs import limits, selectors, services
from research.runs.forms import RunForm
from research.runs.live.fragments import elapsed, state_context, status_context
from research.runs.live.graph import run_graph
from research.runs.live.state import RunState, run_state
from research.workspaces.requests import WorkspaceRequest, workspace_view


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _duration(run: Run) -> str:
    return elapsed(_iso(run.started_at), _iso(run.finished_at), timezone.now().isoformat())


def _form_context(membership: Membership, form: RunForm) -> dict[str, Any]:
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "form": form,
        "estimate": _estimate(form),
        "question_max": limits.QUESTION_MAX,
        "icp_count": len(membership.workspace.icp or []),
        "submission": submission_token(),  # one per drawing: a double-click starts one run
    }


def _estimate(form: RunForm) -> dict[str, Any]:
    """The estimate of the form's current limits (its initial values before anything is typed)."""
    values = {}
    for name in ("rollouts", "budget", "max_turns"):
        raw = form.data.get(name) if form.is_bound else None
        try:
            values[name] = int(raw if raw not in (None, "") else form.fields[name].initial)
        except (TypeError, ValueError):
            return {"errors": [f"{form.fields[name].label}: enter a whole number."]}
    facets = 0
    template = str(form.data.get("template") if form.is_bound else form.initial.get("template", "question"))
    if template in KINDS:
        aspects = str(form.data.get("aspects", "")).splitlines()
        facets = kind_of(template).facet_count(aspects=aspects, workspace_icp=form.workspace.icp or [])
    try:
        cost = services.run_cost(**values, facets=facets)
        return {
            "cost": cost,
            "rollouts": facets or values["rollouts"],
            "facets": facets,
            "offline": services.estimate_offline(),
        }
    except ValidationError as error:
        return {"errors": [message for messages in error.message_dict.values() for message in messages]}


@login_required
@require_http_methods(["GET", "POST"])
@workspace_view
def run_index(request: WorkspaceRequest, slug: str) -> HttpResponse:
    """The run form (for owners and editors) and the workspace's run history; a POST starts a run."""
    membership = request.membership
    initial = {"question": request.GET.get("question", "")[:20_000]}
    if request.GET.get("template") in RunTemplate.values:
        initial["template"] = request.GET["template"]
    form = RunForm(workspace=membership.workspace, initial=initial)
    if request.method == "POST":
        if not membership.can_edit:
            raise PermissionDenied("Only owners and editors can start runs.")
        form = RunForm(request.POST, workspace=membership.workspace)
        with submission_once(request, scope=f"run:{membership.pk}") as submission:
            if submission.repeated:  # sent twice: the first one's run (the list while it is still starting)
                url = submission.first_url or reverse("run_index", kwargs={"slug": slug})
                return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
            run, refused = _start(membership, form)
            if run is not None:
                url = reverse("run_page", kwargs={"slug": slug, "run_id": run.pk})
                submission.done(url)
                return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    context = {**_form_context(membership, form), "runs": _history(membership), "suggestions": _suggestions(form)}
    partial = request.htmx and request.method == "POST"
    template = "research/run_list.html#run_form" if partial else "research/run_list.html"
    response = render(request, template, context, status=422 if form.errors else 200)
    return with_retry_after(response, refused) if request.method == "POST" and refused is not None else response


def _suggestions(form: RunForm) -> list[str]:
    """Questions to try, on the demo workspace's form while it has no question."""
    if form.is_bound or form.initial.get("question") or not workspace_has_demo_corpus(form.workspace):
        return []
    return demo_questions()


def _start(membership: Membership, form: RunForm) -> tuple[Run | None, ValidationError | None]:
    """The run started, or why not (also shown on the form)."""
    if not form.is_valid():
        return None, None
    try:
        return services.run_start(actor=membership, **form.run_inputs()), None
    except ValidationError as error:
        apply_errors(form, error)
        return None, error


def _history(membership: Membership) -> list[dict[str, Any]]:
    return [
        {
            "run": run,
            "duration": _duration(run),
            "found": len(run.result or []),
            "rollouts": len(run_facets(run)) or run.rollouts,
            **status_context(_status(run), ""),
        }
        for run in selectors.run_list(membership=membership)
    ]


@login_required
@require_GET
@workspace_view
def run_form_estimate(request: WorkspaceRequest, slug: str) -> HttpResponse:
    """The estimate for the form's current values (htmx asks on every change)."""
    membership = request.membership
    form = RunForm(request.GET, workspace=membership.workspace)
    return render(request, "research/run_list.html#estimate", {"estimate": _estimate(form)})


def _status(run: Run) -> str:
    return "cancelling" if run.status == RunStatus.RUNNING and run.cancel_requested else str(run.status)


def _stored_state(run: Run) -> RunState:
    """The run's state from every stored event (read after the run row, so a finished run's are all there)."""
    return run_state(selectors.run_events_all(run_id=run.pk), question=run.question)


def _answer_edited(membership: Membership, run: Run, state: RunState) -> dict[str, Any]:
    """The written report as the investigation's analysts left it (research/edits), and what the member may edit."""
    answer = state.answer
    if answer.status != "written" or answer.report is None:
        return {"answer": answer}
    rows = edits.edit_rows(investigation_id=run.investigation_id) if run.investigation_id else []
    edited = edits.report_edited(run, answer.report.report, rows)
    view = ReportView.of(edited) if edited is not None else answer.report
    editing = edits.editing(membership=membership, run=run, report=answer.report.report, rows=rows)
    return {"answer": dataclasses.replace(answer, report=view), "editing": editing}


def _run_of(request: WorkspaceRequest, slug: str, run_id: int) -> tuple[Membership, Run]:
    membership = request.membership
    return membership, selectors.run_get(membership=membership, run_id=run_id)


@login_required
@require_GET
@workspace_view
def run_page(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    """The live run page: everything stored so far, then the socket from the last event rendered."""
    membership, run = _run_of(request, slug, run_id)
    state, facets = _stored_state(run), run_facets(run)
    # the clock the live page keeps (its events' times), so a reload shows what the open page showed
    started, ended = state.started_at or _iso(run.started_at), state.ended_at or _iso(run.finished_at)
    reason = run.status_reason or (run.cancel_reason if run.cancel_requested else "")
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "run": run,
        "rollout_count": len(facets) or run.rollouts,
        "facets": bool(facets),
        "state": state,
        **state_context(state),
        **_answer_edited(membership, run, state),
        **status_context(_status(run), reason),
        "started_at": started,
        "ended_at": ended,
        "elapsed": elapsed(started, ended, timezone.now().isoformat()),
        "graph": run_graph(state),
        "socket": None if run.done else f"/ws/runs/{run.pk}/?after={state.last_seq}&format=html",
    }
    return render(request, "research/run_detail.html", context)


@login_required
@require_GET
@workspace_view
def run_answer(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    """The answer or report alone, with the analysts' edits (the page fetches it once written, and after an edit)."""
    membership, run = _run_of(request, slug, run_id)
    state = _stored_state(run)
    context = {"membership": membership, "workspace": membership.workspace, "run": run, "final_status": state.status}
    context |= _answer_edited(membership, run, state)
    return render(request, "research/partials/run_parts.html#answer", context)


@login_required
@require_GET
@workspace_view
def run_graph_part(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    """The search graph alone (the page re-fetches it as the fused ranking changes)."""
    _, run = _run_of(request, slug, run_id)
    return render(request, "research/partials/run_parts.html#graph", {"graph": run_graph(_stored_state(run))})


@login_required
@require_POST
@workspace_view
def run_stop(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    """Cancel the run with the member's reason; the page learns the outcome from the run's events."""
    membership, run = _run_of(request, slug, run_id)
    error = ""
    try:
        run = services.run_cancel(actor=membership, run=run, reason=request.POST.get("reason", ""))
    except ValidationError as problem:
        error = " ".join(problem.messages)
    if not request.htmx:
        return redirect("run_page", slug=slug, run_id=run.pk)
    context = {"membership": membership, "workspace": membership.workspace, "run": run, "cancel_error": error}
    return render(request, "research/run_detail.html#controls", context, status=409 if error else 200)


@login_required
@require_GET
@workspace_view
def run_document(request: WorkspaceRequest, slug: str, run_id: int, doc_id: str) -> HttpResponse:
    """A document the run found, from any of its corpora, with the chunks named by ``?highlight=`` marked: the
    run's viewer, for reading (deleting is on the corpus's own page). One deleted since gets a 404 that says so."""
    membership, run = _run_of(request, slug, run_id)
    context: dict[str, Any] = {
        "membership": membership,
        "workspace": membership.workspace,
        "back_url": reverse("run_page", kwargs={"slug": slug, "run_id": run.pk}),
        "back_label": f"Run {run.pk}",
        "doc_id": doc_id,
    }
    try:
        document = selectors.run_document_get(run=run, doc_id=doc_id)
    except Http404:
        return render(request, "research/document_detail.html", context, status=404)
    highlight = frozenset(request.GET.getlist("highlight"))
    quote = request.GET.get("quote", "")[:2000]
    context.update(
        corpus=document.corpus,
        document=document,
        chunks=chunks_shown(document=document, quote=quote, cited=highlight),
        highlight=highlight,
        quote=quote,
        can_delete=False,
    )
    return render(request, "research/document_detail.html", context)
