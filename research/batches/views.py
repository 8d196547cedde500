"""ICP batch views: start one from a CSV (on the workspace page), its page with a live table, its CSV export."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from research.batches import selectors, services
from research.batches.exports import batch_csv
from research.batches.forms import BatchForm
from research.models import IcpBatch, Membership
from research.platform.http import apply_errors
from research.platform.quotas import with_retry_after
from research.platform.submissions import submission_once
from research.workspaces.icp import icp_context  # the ICP card the batch form lives in
from research.workspaces.requests import WorkspaceRequest, workspace_view


@login_required
@require_POST
@workspace_view
def batch_create(request: WorkspaceRequest, slug: str) -> HttpResponse:
    """Start a batch; 422 with the form's errors (the file's, the corpora's) shown where it was sent from."""
    membership = request.membership
    form = BatchForm(request.POST, request.FILES, workspace=membership.workspace)
    refused: ValidationError | None = None
    with submission_once(request, scope=f"batch:{membership.pk}") as submission:
        if submission.repeated:  # sent twice: the first one's batch (the workspace page while it is starting)
            url = submission.first_url or reverse("workspace_detail", kwargs={"slug": slug}) + "#icp"
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                batch = services.batch_create(
                    actor=membership,
                    file_name=upload.name or "companies.csv",
                    data=upload.read(),
                    corpora=list(form.cleaned_data["corpora"]),
                )
            except ValidationError as error:
                apply_errors(form, error)
                refused = error
            else:
                url = reverse("batch_page", kwargs={"slug": slug, "batch_id": batch.pk})
                submission.done(url)
                return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        **icp_context(membership),
        "batch_form": form,
    }
    response = render(request, "research/workspace_detail.html#icp", context, status=422)
    return with_retry_after(response, refused) if refused is not None else response


def _table_context(request: WorkspaceRequest, membership: Membership, batch: IcpBatch) -> dict[str, Any]:
    sort = request.GET.get("sort", "line")
    descending = request.GET.get("desc") == "1"
    rows = selectors.batch_rows(membership=membership, batch=batch, sort=sort, descending=descending)
    done, total = selectors.batch_progress(rows)
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "batch": batch,
        "rows": rows,
        "criteria": [str(item.get("name", "")) for item in batch.criteria],
        "sort": sort if sort in selectors.SORTS else "line",
        "descending": descending,
        "done": done,
        "total": total,
        "sorts": selectors.SORTS,
    }


def _batch_of(request: WorkspaceRequest, slug: str, batch_id: int) -> tuple[Membership, IcpBatch]:
    membership = request.membership
    return membership, selectors.batch_get(membership=membership, batch_id=batch_id)


@login_required
@require_GET
@workspace_view
def batch_page(request: WorkspaceRequest, slug: str, batch_id: int) -> HttpResponse:
    membership, batch = _batch_of(request, slug, batch_id)
    return render(request, "research/batch_detail.html", _table_context(request, membership, batch))


@login_required
@require_GET
@workspace_view
def batch_table(request: WorkspaceRequest, slug: str, batch_id: int) -> HttpResponse:
    """The table alone (the page polls it while checks are running, and asks for it to sort)."""
    membership, batch = _batch_of(request, slug, batch_id)
    return render(request, "research/batch_detail.html#table", _table_context(request, membership, batch))


@login_required
@require_GET
@workspace_view
def batch_export(request: WorkspaceRequest, slug: str, batch_id: int) -> HttpResponse:
    membership, batch = _batch_of(request, slug, batch_id)
    rows = selectors.batch_rows(membership=membership, batch=batch)
    run_url = request.build_absolute_uri(reverse("run_page", kwargs={"slug": slug, "run_id": 0})).replace(
        "/0/", "/{id}/"
    )
    response = HttpResponse(batch_csv(batch, rows, run_url=run_url), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="icp-batch-{batch.pk}.csv"'
    return response
