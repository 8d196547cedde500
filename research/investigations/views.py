"""Investigation pages: the list (search, filters, sort), saving a run, the investigation's page (details,
notes, runs, re-run, compare, sharing, archive, delete) and the comparison of two of its runs.

Every view resolves the workspace through the member's membership and the investigation through what they may
read (404 otherwise); what they may do follows research/workspaces/access.py (403 otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from research.corpora.viewer import markdown_html
from research.investigations import selectors, services
from research.investigations.forms import CompareForm, FilterForm, InvestigationForm, SaveRunForm, ShareForm
from research.investigations.panels import CARD as SAVE_CARD
from research.models import Corpus, Investigation, InvestigationMember, Membership, Visibility
from research.platform.http import apply_errors
from research.platform.quotas import with_retry_after
from research.protocol.report import Citation
from research.reporting.presenting import quote_href
from research.runs import selectors as run_selectors
from research.workspaces import access
from research.workspaces.requests import WorkspaceRequest, workspace_view
from research.writing.diff import ClaimChange, RunDiff

PAGE = "research/investigation_detail.html"


def _of(request: WorkspaceRequest, slug: str, investigation_id: int) -> tuple[Membership, Investigation]:
    membership = request.membership
    return membership, selectors.investigation_get(membership=membership, investigation_id=investigation_id)


@login_required
@require_GET
@workspace_view
def investigation_index(request: WorkspaceRequest, slug: str) -> HttpResponse:
    membership = request.membership
    owners = [(user.pk, user.get_username()) for user in selectors.investigation_owners(membership=membership)]
    form = FilterForm(request.GET or None, owners=owners)
    filters = selectors.ListFilter()
    if form.is_valid():
        data = form.cleaned_data
        filters = selectors.ListFilter(
            query=data["q"],
            template=data["template"],
            owner=data["owner"],
            archived=data["archived"],
            sort=data["sort"],
        )
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "form": form,
        "investigations": list(selectors.investigation_list(membership=membership, filters=filters)[:200]),
        "filtered": bool(request.GET),
    }
    template = "research/investigation_list.html"
    return render(request, f"{template}#results" if request.htmx else template, context)


@login_required
@require_POST
@workspace_view
def run_save(request: WorkspaceRequest, slug: str, run_id: int) -> HttpResponse:
    """Save a run (from its page) as a new investigation, or add it to an existing one."""
    membership = request.membership
    run = run_selectors.run_get(membership=membership, run_id=run_id)
    form = SaveRunForm(request.POST, choices=selectors.investigations_to_add_to(membership=membership, run=run))
    investigation = None
    if form.is_valid():
        try:
            investigation = form.cleaned_data["investigation"]
            if investigation is None:
                investigation = services.investigation_create(
                    actor=membership, run=run, title=form.cleaned_data["title"]
                )
            else:
                services.investigation_add_run(actor=membership, investigation=investigation, run=run)
        except ValidationError as error:
            apply_errors(form, error)
            investigation = None
    if investigation is not None:
        url = reverse("investigation_page", kwargs={"slug": slug, "investigation_id": investigation.pk})
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    context = {"membership": membership, "workspace": membership.workspace, "run": run, "save_form": form}
    if request.htmx:
        return render(request, SAVE_CARD, context, status=422)
    messages.error(request, " ".join(str(error) for errors in form.errors.values() for error in errors))
    return redirect("run_page", slug=slug, run_id=run.pk)


def _share_initial(investigation: Investigation) -> dict[str, Any]:
    initial: dict[str, Any] = {"visibility": investigation.visibility, "workspace_role": investigation.workspace_role}
    for share in InvestigationMember.objects.filter(investigation=investigation):
        initial[f"member_{share.user_id}"] = share.role
    return initial


def _others(membership: Membership, investigation: Investigation) -> list[Membership]:
    """The members the investigation can be shared with (everyone but its author)."""
    members = Membership.objects.filter(workspace_id=membership.workspace_id).select_related("user")
    return [m for m in members.order_by("user__username") if m.user_id != investigation.created_by_id]


def _corpora_names(investigation: Investigation) -> list[str]:
    """The names of the investigation's corpora that still exist."""
    ids = investigation.config.get("corpora", [])
    corpora = Corpus.objects.filter(workspace_id=investigation.workspace_id, pk__in=ids).order_by("name")
    return list(corpora.values_list("name", flat=True))


def _context(membership: Membership, investigation: Investigation, **extra: Any) -> dict[str, Any]:
    runs = selectors.investigation_runs(investigation=investigation)
    compare = extra.pop("compare_form", None) or CompareForm(
        runs=runs, initial={"older": runs[1].pk, "newer": runs[0].pk} if len(runs) > 1 else {}
    )
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "investigation": investigation,
        "role": "owner"  # its author and the workspace's owners share, archive and delete it
        if access.can_manage(membership=membership, investigation=investigation)
        else access.investigation_role(membership=membership, investigation=investigation),
        "can_edit": access.can_edit(membership=membership, investigation=investigation),
        "can_rerun": access.can_rerun(membership=membership, investigation=investigation),
        "can_manage": access.can_manage(membership=membership, investigation=investigation),
        "notes_html": markdown_html(investigation.notes),
        "runs": runs,
        "edit_form": extra.pop("edit_form", None)
        or InvestigationForm(
            initial={"title": investigation.title, "notes": investigation.notes, "tags": ", ".join(investigation.tags)}
        ),
        "share_form": extra.pop("share_form", None)
        or ShareForm(initial=_share_initial(investigation), members=_others(membership, investigation)),
        "compare_form": compare,
        "config": investigation.config,
        "corpora_names": list(
            Corpus.objects.filter(
                workspace_id=investigation.workspace_id, pk__in=investigation.config.get("corpora", [])
            )
            .order_by("name")
            .values_list("name", flat=True)
        ),
        **extra,
    }


@login_required
@require_GET
@workspace_view
def investigation_page(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    membership, investigation = _of(request, slug, investigation_id)
    return render(request, PAGE, _context(membership, investigation))


@login_required
@require_POST
@workspace_view
def investigation_edit(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    membership, investigation = _of(request, slug, investigation_id)
    if not access.can_edit(membership=membership, investigation=investigation):
        raise PermissionDenied("You may read this investigation, not edit it.")
    form = InvestigationForm(request.POST)
    if form.is_valid():
        try:
            services.investigation_update(actor=membership, investigation=investigation, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
    return _form_answered(request, membership, investigation, form, partial="details", form_name="edit_form")


def _form_answered(
    request: WorkspaceRequest,
    membership: Membership,
    investigation: Investigation,
    form: forms.Form,
    *,
    partial: str,
    form_name: str,
) -> HttpResponse:
    """After a form of the page: without htmx, back to the page (or the page with the errors); with htmx, its
    card, with its errors (422) or saying it was saved."""
    if not form.errors and not request.htmx:
        return redirect("investigation_page", slug=membership.workspace.slug, investigation_id=investigation.pk)
    context = _context(membership, investigation, **{form_name: form if form.errors else None}, saved=not form.errors)
    template = f"{PAGE}#{partial}" if request.htmx else PAGE
    response = render(request, template, context, status=422 if form.errors else 200)
    if request.htmx and not form.errors:  # the page's head shows the title and who reads it: keep it true
        response.content += render_to_string(f"{PAGE}#head", {**context, "oob": True}, request=request).encode()
    return response


def _action_failed(
    request: WorkspaceRequest, membership: Membership, investigation: Investigation, error: str
) -> HttpResponse:
    if request.htmx:
        context = _context(membership, investigation, action_error=error)
        return render(request, f"{PAGE}#actions", context, status=409)
    messages.error(request, error)
    return redirect("investigation_page", slug=membership.workspace.slug, investigation_id=investigation.pk)


@login_required
@require_POST
@workspace_view
def investigation_rerun(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    """A new run with the investigation's configuration; the browser goes to its live page."""
    membership, investigation = _of(request, slug, investigation_id)
    try:
        run = services.investigation_rerun(actor=membership, investigation=investigation)
    except ValidationError as error:
        failed = _action_failed(request, membership, investigation, " ".join(error.messages))
        return with_retry_after(failed, error)
    url = reverse("run_page", kwargs={"slug": slug, "run_id": run.pk})
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
@workspace_view
def investigation_archive(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    membership, investigation = _of(request, slug, investigation_id)
    archived = request.POST.get("archived") == "1"
    services.investigation_archive(actor=membership, investigation=investigation, archived=archived)
    messages.success(request, "Archived." if archived else "Restored.")
    return redirect("investigation_page", slug=slug, investigation_id=investigation.pk)


@login_required
@require_http_methods(["GET", "POST"])
@workspace_view
def investigation_delete(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    """GET: a confirmation naming what goes; POST: delete it (its runs and reports; never a document)."""
    membership, investigation = _of(request, slug, investigation_id)
    if not access.can_manage(membership=membership, investigation=investigation):
        raise PermissionDenied("Only its author or a workspace owner may delete an investigation.")
    error = ""
    if request.method == "POST":
        try:
            services.investigation_delete(actor=membership, investigation=investigation)
        except ValidationError as problem:
            error = " ".join(problem.messages)
        else:
            messages.success(request, f"Deleted the investigation “{investigation.title}”.")
            return redirect("investigation_index", slug=slug)
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "investigation": investigation,
        "run_count": investigation.runs.count(),
        "error": error,
    }
    return render(request, "research/investigation_delete.html", context, status=409 if error else 200)


@login_required
@require_POST
@workspace_view
def investigation_share(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    membership, investigation = _of(request, slug, investigation_id)
    if not access.can_manage(membership=membership, investigation=investigation):
        raise PermissionDenied("Only its author or a workspace owner may share an investigation.")
    form = ShareForm(request.POST, members=_others(membership, investigation))
    if form.is_valid():
        try:
            services.investigation_share(
                actor=membership,
                investigation=investigation,
                visibility=form.cleaned_data["visibility"],
                workspace_role=form.cleaned_data["workspace_role"],
                members=form.chosen() if form.cleaned_data["visibility"] == Visibility.MEMBERS else {},
            )
        except ValidationError as error:
            apply_errors(form, error)
    return _form_answered(request, membership, investigation, form, partial="sharing", form_name="share_form")


@login_required
@require_GET
@workspace_view
def investigation_compare(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    """What changed between two runs of the investigation: claims, sources, verdicts, documents."""
    membership, investigation = _of(request, slug, investigation_id)
    runs = selectors.investigation_runs(investigation=investigation)
    form = CompareForm(request.GET, runs=runs)
    if not form.is_valid():
        context = _context(membership, investigation, compare_form=form)
        return render(request, f"{PAGE}#compare" if request.htmx else PAGE, context, status=422)
    older, newer = sorted((form.cleaned_data["older"], form.cleaned_data["newer"]), key=lambda run: run.created_at)
    diff = selectors.runs_compare(older=older, newer=newer)
    older_page = reverse("run_page", kwargs={"slug": slug, "run_id": older.pk})
    newer_page = reverse("run_page", kwargs={"slug": slug, "run_id": newer.pk})
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "investigation": investigation,
        "older": older,
        "newer": newer,
        "diff": diff,
        "added": _claims(diff.added, newer_page),
        "gone": _claims(diff.no_longer_supported, older_page),
        "verdicts": _verdicts(diff, newer_page),
        "older_page": older_page,
        "newer_page": newer_page,
    }
    return render(request, "research/investigation_compare.html", context)


def _evidence(citations: Sequence[Citation], run_page: str) -> list[dict[str, str]]:
    """Each citation with a link to the run's document viewer at its quote."""
    return [
        {"quote": c.quote, "source": c.source or c.doc_id, "href": run_page + quote_href(c.doc_id, c.chunk_id, c.quote)}
        for c in citations
    ]


def _claims(changes: Sequence[ClaimChange], run_page: str) -> list[dict[str, Any]]:
    """Claim changes as the compare page lists them, each citation linked to the run's viewer at its quote."""
    return [
        {
            "section": change.title,
            "text": change.claim.text,
            "date": change.claim.date,
            "evidence": _evidence(change.claim.citations, run_page),
        }
        for change in changes
    ]


def _verdicts(diff: RunDiff, run_page: str) -> list[dict[str, Any]]:
    labels = {"match": "Match", "no_match": "No match", "unknown": "Unknown", None: "not judged"}
    return [
        {
            "name": change.name,
            "before": labels.get(change.before, change.before),
            "after": labels.get(change.after, change.after),
            "reason": change.criterion.reason if change.criterion else "",
            "evidence": _evidence(change.criterion.citations if change.criterion else (), run_page),
        }
        for change in diff.verdicts
    ]
