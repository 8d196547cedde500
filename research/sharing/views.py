"""Share links: created and revoked on the investigation's page (its author and workspace owners), and the
public read-only pages behind them, ``/s/<token>/`` (the run's report, or its answer and ranked documents) and
``/s/<token>/c/<chunk id>/`` (a cited chunk with its neighbours). Nothing else of the workspace is reachable
from them: no other run, no corpus, no document beyond the cited chunks, no socket. A revoked, expired or
unknown token is a 404, all three answered by one page in the product's style that does not say which; every access
through a live link is logged with its time and address. Revoking asks first: a dialog (htmx) or, without
JavaScript, a page of its own (GET) whose form does it (POST)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from research.corpora.viewer import marked
from research.investigations import selectors as investigations
from research.models import ShareLink
from research.platform.http import apply_errors
from research.reporting.presenting import ReportView
from research.sharing import selectors, services
from research.sharing.forms import ShareLinkForm
from research.sharing.panels import LINKS, finished_runs, links_context
from research.workspaces import access
from research.workspaces.requests import WorkspaceRequest, workspace_view


@login_required
@require_POST
@workspace_view
def share_link_create(request: WorkspaceRequest, slug: str, investigation_id: int) -> HttpResponse:
    membership = request.membership
    investigation = investigations.investigation_get(membership=membership, investigation_id=investigation_id)
    if not access.can_manage(membership=membership, investigation=investigation):
        raise PermissionDenied("Only the investigation's author or a workspace owner may share it by link.")
    form = ShareLinkForm(request.POST, runs=finished_runs(investigation))
    new_url = ""
    if form.is_valid():
        try:
            made = services.share_link_create(
                actor=membership,
                investigation=investigation,
                run=form.cleaned_data["run"],
                expires_at=form.expires_at(),
                label=form.cleaned_data["label"],
                include_internal=form.cleaned_data["include_internal"],
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            new_url = request.build_absolute_uri(f"/s/{made.token}/")
    context = links_context(membership, investigation, form=form if form.errors else None, new_url=new_url)
    if not request.htmx:  # without JavaScript the link is shown on a page of its own, once
        return render(request, "research/share_link_created.html", context, status=422 if form.errors else 200)
    return render(request, LINKS, context, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
@workspace_view
def share_link_revoke(request: WorkspaceRequest, slug: str, investigation_id: int, link_id: int) -> HttpResponse:
    """GET asks (the page a click on "Revoke…" opens without JavaScript), POST revokes."""
    membership = request.membership
    investigation = investigations.investigation_get(membership=membership, investigation_id=investigation_id)
    link = get_object_or_404(ShareLink, pk=link_id, investigation=investigation)
    if request.method == "GET":
        if not access.can_manage(membership=membership, investigation=investigation):
            raise PermissionDenied("Only the investigation's author or a workspace owner may revoke its links.")
        context = {"workspace": membership.workspace, "investigation": investigation, "link": link}
        return render(request, "research/share_link_revoke.html", context)
    services.share_link_revoke(actor=membership, link=link)
    if not request.htmx:
        return redirect("investigation_page", slug=slug, investigation_id=investigation.pk)
    return render(request, LINKS, links_context(membership, investigation))


def _private(response: HttpResponse) -> HttpResponse:
    """No caching by proxies, no indexing, and no Referer that would carry the token to another site."""
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _gone(request: HttpRequest) -> HttpResponse:
    """A revoked, expired or unknown link: one page for all three (a public URL says nothing of which)."""
    return _private(render(request, "research/share_link_gone.html", status=404))


def _live(token: str) -> ShareLink | None:
    try:
        return selectors.share_link_live(token=token)
    except Http404:
        return None


def _chip_href(doc_id: str, chunk_id: str, text: str) -> str:
    return f"c/{quote(chunk_id, safe='')}/?{urlencode([('quote', text[:500])])}"


@never_cache
@require_GET
def shared_page(request: HttpRequest, token: str) -> HttpResponse:
    link = _live(token)
    if link is None:
        return _gone(request)
    services.share_link_access_record(link=link, ip=request.META.get("REMOTE_ADDR"), path=request.path)
    report = selectors.shared_report(link)
    hidden = selectors.hidden_documents(link, report)
    context = {
        "link": link,
        "run": link.run,
        "title": link.investigation.title,
        "view": ReportView.of(report, chip_href=_chip_href, source_href=lambda doc_id: "") if report else None,
        "documents": [
            item for item in link.run.result or [] if isinstance(item, dict) and item.get("doc_id") not in hidden
        ],
    }
    return _private(render(request, "research/shared.html", context))


@never_cache
@require_GET
def shared_chunk_page(request: HttpRequest, token: str, chunk_id: str) -> HttpResponse:
    link = _live(token)
    if link is None:
        return _gone(request)
    services.share_link_access_record(link=link, ip=request.META.get("REMOTE_ADDR"), path=request.path)
    report = selectors.shared_report(link)
    found = selectors.shared_chunk(run=link.run, report=report, chunk_id=chunk_id) if report else None
    context: dict[str, Any] = {"link": link, "title": link.investigation.title, "token": token}
    if found is None:
        return _private(render(request, "research/shared_chunk.html", context, status=404))
    chunk = found.chunk
    quote_text = request.GET.get("quote", "")[:2000]
    context.update(
        chunk=chunk,
        document=found.document,
        changed=found.changed,
        before=[c for c in found.context if c.index < chunk.index],
        after=[c for c in found.context if c.index > chunk.index],
        marked=marked(chunk.text, quote_text) if quote_text and not found.changed else None,
    )
    return _private(render(request, "research/shared_chunk.html", context))
