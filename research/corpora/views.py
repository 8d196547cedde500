"""Corpus views: create, rename and delete a corpus, upload files, watch ingestion, browse and delete documents."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from research.corpora import quota, selectors, services
from research.corpora.forms import CorpusForm, CorpusRenameForm, ParsingForm, UploadForm
from research.corpora.panels import CARD as CORPORA_CARD
from research.corpora.panels import corpora_context
from research.corpora.viewer import chunks_shown
from research.models import Corpus, Document, Membership
from research.platform.http import apply_errors
from research.workspaces.requests import WorkspaceRequest, workspace_view


def _corpus_context(
    membership: Membership,
    corpus: Corpus,
    form: UploadForm | None = None,
    rename: CorpusRenameForm | None = None,
    parsing: ParsingForm | None = None,
) -> dict[str, Any]:
    uploads = selectors.upload_list(corpus=corpus)
    documents = selectors.document_list(corpus=corpus)
    initial = {"name": corpus.name, "description": corpus.description}
    return {
        "membership": membership,
        "workspace": membership.workspace,
        "corpus": corpus,
        "uploads": uploads,
        "busy": selectors.uploads_busy(uploads=uploads),
        "documents": documents[:200],
        "document_total": documents.count(),
        "files_refining": selectors.files_refining(corpus=corpus),
        "usage": quota.usage(corpus.workspace_id),
        "upload_form": form or UploadForm(),
        "rename_form": rename or CorpusRenameForm(initial=initial),
        "parsing_form": parsing or ParsingForm(initial=ParsingForm.initial_of(corpus.parse_options)),
    }


def _go(request: WorkspaceRequest, url: str) -> HttpResponse:
    """Navigate to ``url``: htmx follows HX-Redirect as a whole page (a 302 would be swapped into the form)."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_http_methods(["GET", "POST"])
@workspace_view
def corpus_create(request: WorkspaceRequest, slug: str) -> HttpResponse:
    """Create a corpus and go to its page (a GET, such as a reload after an error, goes to the workspace page)."""
    membership = request.membership
    if request.method == "GET":
        return redirect("workspace_detail", slug=slug)
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
            return _go(request, reverse("corpus_detail", kwargs={"slug": slug, "corpus_slug": corpus.slug}))
    if not request.htmx:  # without JavaScript, back to the workspace page with the errors said
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("workspace_detail", slug=slug)
    return render(request, CORPORA_CARD, corpora_context(membership, form=form), status=422)


@login_required
@require_GET
@workspace_view
def corpora_live(request: WorkspaceRequest, slug: str) -> HttpResponse:
    """The workspace page's corpus list (with counts) as an out-of-band fragment, which that page re-reads after
    each workspace notice; without htmx, the workspace page itself."""
    if not request.htmx:
        return redirect("workspace_detail", slug=slug)
    return render(request, f"{CORPORA_CARD}#corpora_live", corpora_context(request.membership))


@login_required
@require_http_methods(["GET", "POST"])
@workspace_view
def corpus_detail(request: WorkspaceRequest, slug: str, corpus_slug: str) -> HttpResponse:
    """The corpus page. Its settings form posts here (rename); ``?delete`` asks to confirm a deletion, whose form
    posts here with ``action=delete``."""
    membership = request.membership
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    if request.method == "POST":
        if request.POST.get("action") == "delete":
            return _corpus_delete(request, membership, corpus)
        return _corpus_rename(request, membership, corpus)
    if "delete" in request.GET:
        return _delete_confirmation(request, membership, corpus)
    return render(request, "research/corpus_detail.html", _corpus_context(membership, corpus))


def _corpus_rename(request: WorkspaceRequest, membership: Membership, corpus: Corpus) -> HttpResponse:
    form = CorpusRenameForm(request.POST)
    if form.is_valid():
        try:
            services.corpus_rename(actor=membership, corpus=corpus, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, f"Renamed to “{corpus.name}”.")
            return _go(
                request, reverse("corpus_detail", kwargs={"slug": corpus.workspace.slug, "corpus_slug": corpus.slug})
            )
    corpus.refresh_from_db()  # the page shows the stored name, the form the one refused
    context = {**_corpus_context(membership, corpus, rename=form), "settings_open": True}
    return render(request, "research/corpus_detail.html", context, status=422)


@login_required
@require_POST
@workspace_view
def corpus_parsing(request: WorkspaceRequest, slug: str, corpus_slug: str) -> HttpResponse:
    """Change how the corpus reads CSV and JSON files; its files take the change when ingested again."""
    membership = request.membership
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    form = ParsingForm(request.POST)
    if form.is_valid():
        services.corpus_parsing_set(actor=membership, corpus=corpus, parse_options=form.parse_options())
        messages.success(request, "Parsing options saved. Ingest a file again to read it with them.")
        return _go(request, reverse("corpus_detail", kwargs={"slug": slug, "corpus_slug": corpus.slug}))
    context = {**_corpus_context(membership, corpus, parsing=form), "parsing_open": True}
    return render(request, "research/corpus_detail.html", context, status=422)


@login_required
@require_POST
@workspace_view
def upload_file_reingest(request: WorkspaceRequest, slug: str, corpus_slug: str, file_id: int) -> HttpResponse:
    """Ingest a finished file again from its stored bytes, with the corpus's parsing options as they are now."""
    membership = request.membership
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    item = selectors.upload_file_get(corpus=corpus, file_id=file_id)
    try:
        services.upload_file_reingest(actor=membership, item=item)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{item.name} is queued to be ingested again.")
    return _go(request, reverse("corpus_detail", kwargs={"slug": slug, "corpus_slug": corpus.slug}))


def _delete_confirmation(
    request: WorkspaceRequest, membership: Membership, corpus: Corpus, error: str = "", status: int = 200
) -> HttpResponse:
    if not membership.can_edit:
        raise PermissionDenied("Only owners and editors can delete corpora.")
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "corpus": corpus,
        "contents": selectors.corpus_contents(corpus=corpus),
        "error": error,
    }
    return render(request, "research/corpus_detail.html", context, status=status)


def _corpus_delete(request: WorkspaceRequest, membership: Membership, corpus: Corpus) -> HttpResponse:
    documents = selectors.corpus_contents(corpus=corpus).documents
    try:
        services.corpus_delete(actor=membership, corpus=corpus)
    except ValidationError as error:
        return _delete_confirmation(request, membership, corpus, error=" ".join(error.messages), status=409)
    messages.success(request, f"Deleted the corpus “{corpus.name}” and its {documents} document(s).")
    return _go(request, reverse("workspace_detail", kwargs={"slug": membership.workspace.slug}))


@login_required
@require_http_methods(["GET", "POST"])
@workspace_view
def upload_create(request: WorkspaceRequest, slug: str, corpus_slug: str) -> HttpResponse:
    """Store the files and queue them (a GET, such as a reload after an error, goes to the corpus page)."""
    membership = request.membership
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    if request.method == "GET":
        return redirect("corpus_detail", slug=slug, corpus_slug=corpus.slug)
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
            if not request.htmx:
                return redirect("corpus_detail", slug=slug, corpus_slug=corpus.slug)
            form = UploadForm()
    template = "research/corpus_detail.html#uploads" if request.htmx else "research/corpus_detail.html"
    return render(request, template, _corpus_context(membership, corpus, form), status=422 if form.errors else 200)


@login_required
@require_GET
@workspace_view
def corpus_live(request: WorkspaceRequest, slug: str, corpus_slug: str) -> HttpResponse:
    """The corpus page's live parts (counts, uploads, documents) as out-of-band fragments, which the page re-reads
    after each workspace notice and while files are busy; without htmx, the corpus page itself."""
    membership = request.membership
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    if not request.htmx:
        return redirect("corpus_detail", slug=slug, corpus_slug=corpus.slug)
    return render(request, "research/corpus_detail.html#live", _corpus_context(membership, corpus))


@login_required
@require_GET
@workspace_view
def upload_file_row(request: WorkspaceRequest, slug: str, corpus_slug: str, file_id: int) -> HttpResponse:
    """One file's current row."""
    membership = request.membership
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    item = selectors.upload_file_get(corpus=corpus, file_id=file_id)
    return render(request, "research/partials/upload_file.html", {"file": item, "membership": membership})


def _document(
    request: WorkspaceRequest, slug: str, corpus_slug: str, doc_id: str
) -> tuple[Membership, Corpus, Document]:
    """The member's membership, the corpus and its document named in the address (404 for any of them not found
    or not the member's)."""
    membership = request.membership
    corpus = selectors.corpus_get(membership=membership, slug=corpus_slug)
    return membership, corpus, selectors.document_get(corpus=corpus, doc_id=doc_id)


@login_required
@require_GET
@workspace_view
def document_detail(request: WorkspaceRequest, slug: str, corpus_slug: str, doc_id: str) -> HttpResponse:
    """A document of the corpus, its chunks in order (Markdown rendered safely); editors may delete it here."""
    membership, corpus, document = _document(request, slug, corpus_slug, doc_id)
    context = {
        "membership": membership,
        "workspace": membership.workspace,
        "corpus": corpus,
        "document": document,
        "chunks": chunks_shown(document=document),
        "can_delete": membership.can_edit,
    }
    return render(request, "research/document_detail.html", context)


@login_required
@require_POST
@workspace_view
def document_internal(request: WorkspaceRequest, slug: str, corpus_slug: str, doc_id: str) -> HttpResponse:
    """Mark the document internal (``internal=1``) or not (``internal=0``), then back to its page."""
    membership, corpus, document = _document(request, slug, corpus_slug, doc_id)
    services.document_mark(actor=membership, document=document, internal=request.POST.get("internal") == "1")
    return redirect("document_detail", slug=slug, corpus_slug=corpus.slug, doc_id=document.doc_id)


@login_required
@require_POST
@workspace_view
def document_delete(request: WorkspaceRequest, slug: str, corpus_slug: str, doc_id: str) -> HttpResponse:
    membership, corpus, document = _document(request, slug, corpus_slug, doc_id)
    services.document_delete(actor=membership, document=document)
    return redirect("corpus_detail", slug=slug, corpus_slug=corpus.slug)
