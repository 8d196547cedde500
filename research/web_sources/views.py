"""The corpus page's Web pages card: add a page or a sitemap's pages (owners and editors), see each page's
outcome (queued, fetching, fetched, unchanged, refused with the reason, ...), re-fetch one. The card polls itself
every two seconds while a page is on its way."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from research.corpora.selectors import corpus_get
from research.models import Corpus, Membership, WebPage
from research.platform.http import apply_errors
from research.web_sources import services
from research.web_sources.forms import UrlAddForm
from research.web_sources.panels import CARD, web_pages_context
from research.workspaces.requests import WorkspaceRequest, workspace_view


def _card(
    request: WorkspaceRequest, membership: Membership, corpus: Corpus, *, form: UrlAddForm | None = None
) -> HttpResponse:
    """The card again (422 with the form's errors); without JavaScript, back to the corpus page, errors said."""
    failed = form is not None and bool(form.errors)
    if not request.htmx:
        if failed and form is not None:
            messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("corpus_detail", slug=membership.workspace.slug, corpus_slug=corpus.slug)
    return render(request, CARD, web_pages_context(membership, corpus, form=form), status=422 if failed else 200)


@login_required
@require_GET
@workspace_view
def web_pages(request: WorkspaceRequest, slug: str, corpus_slug: str) -> HttpResponse:
    membership = request.membership
    corpus = corpus_get(membership=membership, slug=corpus_slug)
    return render(request, CARD, web_pages_context(membership, corpus))


@login_required
@require_POST
@workspace_view
def url_add(request: WorkspaceRequest, slug: str, corpus_slug: str) -> HttpResponse:
    membership = request.membership
    corpus = corpus_get(membership=membership, slug=corpus_slug)
    form = UrlAddForm(request.POST)
    if form.is_valid():
        try:
            data = form.cleaned_data
            services.url_add(
                actor=membership, corpus=corpus, url=data["url"], sitemap=data["sitemap"], limit=data["limit"] or 20
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return _card(request, membership, corpus)
    return _card(request, membership, corpus, form=form)


@login_required
@require_POST
@workspace_view
def page_refetch(request: WorkspaceRequest, slug: str, corpus_slug: str, page_id: int) -> HttpResponse:
    membership = request.membership
    corpus = corpus_get(membership=membership, slug=corpus_slug)
    page = get_object_or_404(WebPage, pk=page_id, corpus=corpus)
    services.page_refetch(actor=membership, page=page)
    return _card(request, membership, corpus)
