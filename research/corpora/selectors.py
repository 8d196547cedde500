"""Read-side queries of corpora, uploads, documents and chunks, always within a member's workspace."""

from __future__ import annotations

from django.db.models import Count, QuerySet
from django.http import Http404

from research.models import Chunk, Corpus, Document, Membership, Upload, UploadFile, Workspace


def corpus_list(*, workspace: Workspace) -> QuerySet[Corpus]:
    return (
        Corpus.objects.filter(workspace=workspace)
        .annotate(document_total=Count("documents", distinct=True))
        .order_by("name", "id")
    )


def corpus_get(*, membership: Membership, slug: str) -> Corpus:
    """A corpus of the member's workspace; 404 otherwise."""
    corpus = Corpus.objects.filter(workspace=membership.workspace, slug=slug).first()
    if corpus is None:
        raise Http404("No such corpus")
    return corpus


def upload_list(*, corpus: Corpus, limit: int = 10) -> list[Upload]:
    uploads = list(Upload.objects.filter(corpus=corpus).order_by("-created_at", "-id")[:limit])
    files = UploadFile.objects.filter(upload__in=uploads).select_related("upload__corpus__workspace").order_by("id")
    by_upload: dict[int, list[UploadFile]] = {}
    for item in files:
        by_upload.setdefault(item.upload_id, []).append(item)
    for upload in uploads:
        upload.file_list = by_upload.get(upload.pk, [])  # type: ignore[attr-defined]
    return uploads


def document_list(*, corpus: Corpus) -> QuerySet[Document]:
    return Document.objects.filter(corpus=corpus).order_by("title", "id")


def document_get(*, corpus: Corpus, doc_id: str) -> Document:
    document = Document.objects.filter(corpus=corpus, doc_id=doc_id).first()
    if document is None:
        raise Http404("No such document")
    return document


def chunk_list(*, document: Document) -> QuerySet[Chunk]:
    return Chunk.objects.filter(document=document).order_by("index")


def upload_file_get(*, corpus: Corpus, file_id: int) -> UploadFile:
    item = (
        UploadFile.objects.select_related("upload__corpus__workspace").filter(upload__corpus=corpus, pk=file_id).first()
    )
    if item is None:
        raise Http404("No such file")
    return item
