"""Report exports: a run's stored report as Markdown, Word, PDF or JSON (members of its workspace only), without
the claims only our own notes back unless asked with ``?internal=1`` (research/reporting/internal.py); the
investigation's analysts' edits applied (research/edits)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from research.edits.selectors import report_shown_edited
from research.reporting.exports import MEDIA_TYPES, export_response
from research.runs.selectors import run_get
from research.workspaces.requests import WorkspaceRequest, workspace_view


@login_required
@require_GET
@workspace_view
def report_export(request: WorkspaceRequest, slug: str, run_id: int, fmt: str) -> HttpResponse:
    """``report.md``, ``report.docx``, ``report.pdf`` or ``report.json`` of a run; 404 for a non-member, an
    unknown run or format, or a run with no stored report. Internal sources are left out unless
    ``internal=1``."""
    membership = request.membership
    run = run_get(membership=membership, run_id=run_id)
    if fmt not in MEDIA_TYPES:
        raise Http404("Unknown export format")
    with_internal = request.GET.get("internal") == "1"
    report = report_shown_edited(run, internal=with_internal)
    if report is None:
        raise Http404("This run has no written report")
    return export_response(report, fmt, run_id=run.pk, workspace_name=membership.workspace.name, internal=with_internal)
