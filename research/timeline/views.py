"""The timeline's downloads: ``timeline.md`` and ``timeline.csv`` of an investigation, for the members who may read
it (404 otherwise), without what only our own notes back unless asked with ``?internal=1``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from research.investigations.selectors import investigation_get
from research.timeline.exports import timeline_csv, timeline_markdown
from research.timeline.selectors import investigation_timeline
from research.workspaces.requests import WorkspaceRequest, workspace_view

MEDIA_TYPES = {"md": "text/markdown; charset=utf-8", "csv": "text/csv; charset=utf-8"}


@login_required
@require_GET
@workspace_view
def timeline_export(request: WorkspaceRequest, slug: str, investigation_id: int, fmt: str) -> HttpResponse:
    investigation = investigation_get(membership=request.membership, investigation_id=investigation_id)
    if fmt not in MEDIA_TYPES:
        raise Http404("Unknown export format")
    internal = request.GET.get("internal") == "1"
    found = investigation_timeline(investigation=investigation, internal=internal)
    if fmt == "md":
        heading = f"Timeline and prices: {found.subject or investigation.title} ({request.membership.workspace.name})"
        body = timeline_markdown(found, heading=heading)
    else:
        body = timeline_csv(found)
    response = HttpResponse(body, content_type=MEDIA_TYPES[fmt])
    suffix = "-with-internal" if internal else ""
    response["Content-Disposition"] = f'attachment; filename="investigation-{investigation.pk}-timeline{suffix}.{fmt}"'
    return response
