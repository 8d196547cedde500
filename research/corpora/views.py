"""Corpus views: create a corpus, upload files, watch ingestion, browse and delete documents."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from research.corpora import selectors, services
from research.corpora.forms import CorpusForm, UploadForm
from research.models import Corpus, Membership
from research.platform.web import apply_errors, is_htmx
from research.workspaces.selectors import membership_get


def _corpus_context(membership: Membership, corpus: Corpus, form: UploadForm | None = None) -> dict[str, object]:
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "corpus": corpus,
        "uploads": selectors.upload_list(corpus=corpus),
        "documents": selectors.document_list(corpus=corpus)[:200],
        "document_total": selectors.document_list(corpus=corpus).count(),
        "upload_form": form or UploadForm(),
    }


@login_required
@require_POST
def corpus_create(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_get(user=request.user, slug=slug)
    form = CorpusForm(request.POST)
    if form.is_valid():
        try:
            corpus = services.corpus_create(
                actor=membership,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                parse_options=form.parse_options(),
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect("corpus_detail", slug=slug, corpus_slug=corpus.slug)
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "corpus_form": form,
        "corpora": selectors.corpus_list(workspace=membership.workspace),
    }
    template = "research/workspace_detail.html#corpora" if is_htmx(request) else "research/workspace_detail.html"
    return render(request, template, context, status=422)


@login_required
@require_GET
def corpus_detail(request: HttpRequest, slug: str, corpus_slug: str) -> HttpResponse:
    membership = membership_get(user=request.user, slug=slug)
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    return render(request, "research/corpus_detail.html", _corpus_context(membership, corpus))


@login_required
@require_POST
def upload_create(request: HttpRequest, slug: str, corpus_slug: str) -> HttpResponse:
    membership = membership_get(user=request.user, slug=slug)
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        incoming = [
            services.IncomingFile(name=f.name or "unnamed", chunks=f.chunks()) for f in form.cleaned_data["upload"]
        ]
        try:
            services.upload_create(actor=membership, corpus=corpus, files=incoming)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            if not is_htmx(request):
                return redirect("corpus_detail", slug=slug, corpus_slug=corpus.slug)
            form = UploadForm()
    template = "research/corpus_detail.html#uploads" if is_htmx(request) else "research/corpus_detail.html"
    return render(request, template, _corpus_context(membership, corpus, form), status=422 if form.errors else 200)


@login_required
@require_GET
def upload_file_row(request: HttpRequest, slug: str, corpus_slug: str, file_id: int) -> HttpResponse:
    """One file's current row: pages poll unfinished rows, so a push lost by the channel layer is caught up."""
    membership = membership_get(user=request.user, slug=slug)
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    item = selectors.upload_file_get(corpus=corpus, file_id=file_id)
    return render(request, "research/partials/upload_file.html", {"file": item})


@login_required
@require_GET
def document_detail(request: HttpRequest, slug: str, corpus_slug: str, doc_id: str) -> HttpResponse:
    membership = membership_get(user=request.user, slug=slug)
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    document = selectors.document_get(corpus=corpus, doc_id=doc_id)
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "corpus": corpus,
        "document": document,
        "chunks": selectors.chunk_list(document=document),
    }
    return render(request, "research/document_detail.html", context)


@login_required
@require_POST
def document_delete(request: HttpRequest, slug: str, corpus_slug: str, doc_id: str) -> HttpResponse:
    membership = membership_get(user=request.user, slug=slug)
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    services.document_delete(actor=membership, document=selectors.document_get(corpus=corpus, doc_id=doc_id))
    return redirect("corpus_detail", slug=slug, corpus_slug=corpus.slug)
