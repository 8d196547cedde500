"""Read-side queries. Every workspace lookup is scoped to the asking user's memberships."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, QuerySet
from django.http import Http404

from research.models import (
    TERMINAL_RUN_STATUSES,
    Chunk,
    Corpus,
    Document,
    Membership,
    Run,
    RunEvent,
    Upload,
    UploadFile,
    Workspace,
)
from research.runs.journal import StoredEvent, stored


def workspace_list_for_user(*, user: User | AnonymousUser) -> QuerySet[Workspace]:
    if not user.is_authenticated:
        return Workspace.objects.none()
    return Workspace.objects.filter(memberships__user=user).order_by("name", "id")


def membership_get(*, user: User | AnonymousUser, slug: str) -> Membership:
    """The user's membership of the workspace ``slug``; 404 when they are not a member (or it does not exist)."""
    if not user.is_authenticated:
        raise Http404("No such workspace")
    try:
        return Membership.objects.select_related("workspace").get(workspace__slug=slug, user=user)
    except Membership.DoesNotExist:
        raise Http404("No such workspace") from None


def membership_find_by_slug(*, user_id: int, slug: str) -> Membership | None:
    return Membership.objects.filter(workspace__slug=slug, user_id=user_id).first()


def membership_list(*, workspace: Workspace) -> QuerySet[Membership]:
    return Membership.objects.filter(workspace=workspace).select_related("user").order_by("user__username")


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


def run_list(*, workspace: Workspace, limit: int = 50) -> list[Run]:
    return list(
        Run.objects.filter(workspace=workspace).prefetch_related("corpora").order_by("-created_at", "-id")[:limit]
    )


def run_get(*, membership: Membership, run_id: int) -> Run:
    """A run of the member's workspace; 404 otherwise."""
    run = Run.objects.filter(workspace=membership.workspace, pk=run_id).prefetch_related("corpora").first()
    if run is None:
        raise Http404("No such run")
    return run


def run_find_for_user(*, user_id: int, run_id: int) -> Run | None:
    """The run if the user is a member of its workspace (the socket's check); None otherwise."""
    return Run.objects.filter(pk=run_id, workspace__memberships__user_id=user_id).first()


def run_events_after(*, run_id: int, after: int, limit: int = 500) -> list[StoredEvent]:
    """Stored events with ``seq > after``, in order, at most ``limit`` of them."""
    events = RunEvent.objects.filter(run_id=run_id, seq__gt=after).order_by("seq")[:limit]
    return [stored(event) for event in events]


def run_progress(*, run_id: int) -> tuple[int, bool]:
    """The run's latest seq and whether it has ended (what a socket checks to catch up on dropped messages)."""
    row = Run.objects.filter(pk=run_id).values_list("last_seq", "status").first()
    if row is None:
        return 0, True
    return row[0], row[1] in TERMINAL_RUN_STATUSES
