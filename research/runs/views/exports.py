"""Report exports: a run's stored report as Markdown, Word, PDF or JSON (members of its workspace only), without
the claims only our own notes back unless asked with ``?internal=1`` (research/reporting/internal.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from research.reporting.exports import as_json, markdown, pdf, word
from research.reporting.internal import outward
from research.reporting.selectors import internal_cited, report_of
from research.runs.selectors import run_get
from research.workspaces.requests import WorkspaceRequest, workspace_view

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@login_required
@require_GET
@workspace_view
def report_export(request: WorkspaceRequest, slug: str, run_id: int, fmt: str) -> HttpResponse:
    """``report.md``, ``report.docx``, ``report.pdf`` or ``report.json`` of a run; 404 for a non-member, an
    unknown run or format, or a run with no stored report. Internal sources are left out unless
    ``internal=1``."""
    membership = request.membership
    run = run_get(membership=membership, run_id=run_id)
    stored = report_of(run)
    if stored is None:
        raise Http404("This run has no written report")
    with_internal = request.GET.get("internal") == "1"
    report = stored if with_internal else outward(stored, internal_cited(run, stored)).report
    heading = f"Run {run.pk}: {membership.workspace.name}"
    if fmt == "md":
        response = HttpResponse(markdown(report, heading=heading), content_type="text/markdown; charset=utf-8")
    elif fmt == "docx":
        response = HttpResponse(word(report, heading=heading), content_type=DOCX)
    elif fmt == "pdf":
        response = HttpResponse(pdf(report, heading=heading), content_type="application/pdf")
    elif fmt == "json":
        response = HttpResponse(as_json(report), content_type="application/json; charset=utf-8")
    else:
        raise Http404("Unknown export format")
    suffix = "-with-internal" if with_internal else ""
    response["Content-Disposition"] = f'attachment; filename="run-{run.pk}-report{suffix}.{fmt}"'
    return response
