"""Write-side operations on workspaces and memberships (keyword-only, validated, transactional)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.text import slugify

from research import uploads
from research.models import Corpus, Document, Membership, Role, Stage, Upload, UploadFile, Workspace


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "workspace"
    slug, suffix = base, 2
    while Workspace.objects.filter(slug=slug).exists():
        slug = f"{base}-{suffix}"
        suffix += 1
    return slug


@transaction.atomic
def workspace_create(*, name: str, owner: User, description: str = "") -> Workspace:
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A workspace needs a name."})
    workspace = Workspace.objects.create(
        name=name, slug=_unique_slug(name), description=description.strip(), created_by=owner
    )
    Membership.objects.create(workspace=workspace, user=owner, role=Role.OWNER)
    return workspace


@transaction.atomic
def membership_add(*, actor: Membership, username: str, role: str) -> Membership:
    """Add ``username`` to the actor's workspace; only owners may do this."""
    if not actor.can_manage:
        raise PermissionDenied("Only a workspace owner can add members.")
    if role not in Role.values:
        raise ValidationError({"role": f"Unknown role {role!r}."})
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None:
        raise ValidationError({"username": f"No user called {username.strip()!r}."})
    try:
        with transaction.atomic():
            return Membership.objects.create(workspace=actor.workspace, user=user, role=role)
    except IntegrityError:
        raise ValidationError({"username": f"{user} is already a member."}) from None


def _require_editor(actor: Membership) -> None:
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can change corpora.")


@transaction.atomic
def corpus_create(
    *, actor: Membership, name: str, description: str = "", chunk_tokens: int | None = None,
    parse_options: dict[str, object] | None = None,
) -> Corpus:  # fmt: skip
    _require_editor(actor)
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A corpus needs a name."})
    base = slugify(name)[:120] or "corpus"
    slug, suffix = base, 2
    while Corpus.objects.filter(workspace=actor.workspace, slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return Corpus.objects.create(
        workspace=actor.workspace, name=name, slug=slug, description=description.strip(), created_by=actor.user,
        chunk_tokens=chunk_tokens or settings.CHUNK_TOKENS, parse_options=parse_options or {},
    )  # fmt: skip


@dataclass(frozen=True)
class IncomingFile:
    """A file as received: its name and its bytes, in pieces (so large uploads are never held in memory)."""

    name: str
    chunks: Iterable[bytes]


def upload_create(*, actor: Membership, corpus: Corpus, files: Sequence[IncomingFile], enqueue: bool = True) -> Upload:
    """Store every file and queue each for ingestion after commit; a file over the size limit fails alone.

    With ``enqueue=False`` nothing is queued: the caller ingests the files itself (the CLI's --sync).
    """
    from research.tasks import ingest_file

    _require_editor(actor)
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That corpus is not in your workspace.")
    if not files:
        raise ValidationError({"upload": "Choose at least one file."})
    with transaction.atomic():
        upload = Upload.objects.create(corpus=corpus, created_by=actor.user)
        queued = []
        for incoming in files:
            name = uploads.safe_display_name(incoming.name)
            stored = uploads.store(corpus_id=corpus.pk, name=name, chunks=incoming.chunks)
            item = UploadFile(upload=upload, name=name, size=stored.size, sha256=stored.sha256,
                              stored_path=stored.relative_path)  # fmt: skip
            if stored.too_large:
                item.stage = Stage.FAILED
                item.error = f"over the size limit of {settings.MAX_UPLOAD_MB} MB"
            item.save()
            if item.stage == Stage.QUEUED:
                queued.append(item.pk)
        if enqueue:
            transaction.on_commit(lambda: [ingest_file.delay(pk) for pk in queued])
    return upload


def document_delete(*, actor: Membership, document: Document) -> None:
    """Remove a document from the database and from every index of its corpus."""
    from research.composition import corpus_index
    from research.tasks import ingest_refresh_sparse

    _require_editor(actor)
    corpus = document.corpus
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That document is not in your workspace.")
    corpus_index(corpus).delete_documents([document.doc_id])
    with transaction.atomic():
        document.delete()
        Corpus.objects.filter(pk=corpus.pk).update(content_version=F("content_version") + 1)
        transaction.on_commit(lambda: ingest_refresh_sparse.delay(corpus.pk))
