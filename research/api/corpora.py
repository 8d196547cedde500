"""Corpora over the API: list, create, read one (its files and their stages), upload files to it (multipart, with
the page's checks and limits: size, type, the workspace's storage quota and embedding budget)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Sum
from django.http import HttpRequest
from ninja import File, Router, Status
from ninja.files import UploadedFile

from research.api.auth import require, same_workspace
from research.api.schemas import CorpusDetail, CorpusIn, CorpusOut
from research.corpora import selectors, services
from research.models import ApiScope, Corpus, UploadFile

router = Router(tags=["corpora"])
FILES_SHOWN = 500


def _corpus_out(corpus: Corpus) -> dict[str, Any]:
    totals = corpus.documents.aggregate(documents=Count("pk"), chunks=Sum("chunk_count"))
    return {
        "slug": corpus.slug,
        "name": corpus.name,
        "description": corpus.description,
        "documents": totals["documents"] or 0,
        "chunks": totals["chunks"] or 0,
    }


def _corpus_detail(corpus: Corpus) -> dict[str, Any]:
    files = UploadFile.objects.filter(upload__corpus=corpus).order_by("-id")[:FILES_SHOWN]
    fields = ("id", "name", "stage", "error", "size", "documents_added", "chunks_added")
    return {**_corpus_out(corpus), "files": list(files.values(*fields))}


@router.get("/workspaces/{slug}/corpora", response=list[CorpusOut], summary="The workspace's corpora")
def corpus_list(request: HttpRequest, slug: str) -> list[dict[str, Any]]:
    access = require(request, ApiScope.CORPORA_READ)
    same_workspace(access, slug)
    return [_corpus_out(corpus) for corpus in selectors.corpus_list(workspace=access.membership.workspace)]


@router.post("/workspaces/{slug}/corpora", response={201: CorpusOut}, summary="Create a corpus")
def corpus_create(request: HttpRequest, slug: str, body: CorpusIn) -> Status[dict[str, Any]]:
    access = require(request, ApiScope.CORPORA_WRITE)
    same_workspace(access, slug)
    corpus = services.corpus_create(actor=access.membership, name=body.name, description=body.description)
    return Status(201, _corpus_out(corpus))


@router.get(
    "/workspaces/{slug}/corpora/{corpus}", response=CorpusDetail, summary="A corpus, its files and their stages"
)
def corpus_detail(request: HttpRequest, slug: str, corpus: str) -> dict[str, Any]:
    access = require(request, ApiScope.CORPORA_READ)
    same_workspace(access, slug)
    return _corpus_detail(selectors.corpus_get(membership=access.membership, slug=corpus))


@router.post(
    "/workspaces/{slug}/corpora/{corpus}/files", response={202: CorpusDetail}, summary="Upload files (multipart)"
)
def corpus_upload(
    request: HttpRequest,
    slug: str,
    corpus: str,
    files: list[UploadedFile] = File(...),  # type: ignore[type-arg]
) -> Status[dict[str, Any]]:
    """Each file is stored and queued; one that is empty, too large or past the workspace's quota fails alone
    with its reason (its row says so), the others go on. Read the corpus to follow their stages."""
    access = require(request, ApiScope.CORPORA_WRITE)
    same_workspace(access, slug)
    target = selectors.corpus_get(membership=access.membership, slug=corpus)
    incoming = [services.IncomingFile(name=f.name or "unnamed", chunks=f.chunks()) for f in files]
    services.upload_create(actor=access.membership, corpus=target, files=incoming)
    return Status(202, _corpus_detail(target))
