"""Write-side operations on corpora, uploads and documents (keyword-only, validated, transactional)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.text import slugify

from research.corpora import quota, selectors, storage, task_names
from research.models import TERMINAL_STAGES, Corpus, CorpusKind, Document, Membership, Stage, Upload, UploadFile
from research.platform.composition import corpus_index, corpus_index_drop


def _require_editor(actor: Membership) -> None:
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can change corpora.")


def _unique_slug(actor: Membership, name: str) -> str:
    base = slugify(name)[:120] or "corpus"
    slug, suffix = base, 2
    while Corpus.objects.filter(workspace=actor.workspace, slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug


def _free_name(actor: Membership, name: str, *, renaming: Corpus | None = None) -> str:
    """``name`` stripped, when no other corpus of the workspace has it in any case; ValidationError otherwise."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": "A corpus needs a name."})
    others = Corpus.objects.filter(workspace=actor.workspace)
    if renaming is not None:
        others = others.exclude(pk=renaming.pk)
    # Compared in Python: SQLite's lower() folds ASCII only, and "Étude" and "étude" are one name.
    if any(other.casefold() == name.casefold() for other in others.values_list("name", flat=True)):
        raise ValidationError({"name": f"This workspace already has a corpus named “{name}”; choose another name."})
    return name


def corpus_create(
    *,
    actor: Membership,
    name: str,
    description: str = "",
    chunk_tokens: int | None = None,
    parse_options: dict[str, object] | None = None,
    kind: str = CorpusKind.FILES,
) -> Corpus:
    _require_editor(actor)
    name = _free_name(actor, name)
    try:
        with transaction.atomic():
            return Corpus.objects.create(
                workspace=actor.workspace,
                name=name,
                slug=_unique_slug(actor, name),
                description=description.strip(),
                created_by=actor.user,
                chunk_tokens=chunk_tokens or settings.CHUNK_TOKENS,
                parse_options=parse_options or {},
                kind=kind,
            )
    except IntegrityError:
        _free_name(actor, name)  # a concurrent create took the name: say so (the constraint caught it)
        raise


def corpus_rename(*, actor: Membership, corpus: Corpus, name: str, description: str) -> Corpus:
    """Give the corpus a new name (unique in its workspace) and description; its slug, and so its URLs, stay."""
    _require_editor(actor)
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That corpus is not in your workspace.")
    corpus.name, corpus.description = _free_name(actor, name, renaming=corpus), description.strip()
    try:
        with transaction.atomic():
            corpus.save(update_fields=["name", "description"])
    except IntegrityError:
        _free_name(actor, corpus.name, renaming=corpus)  # a concurrent create took the name: say so
        raise
    return corpus


def corpus_parsing_set(*, actor: Membership, corpus: Corpus, parse_options: dict[str, object]) -> Corpus:
    """Change how the corpus reads CSV and JSON files (the JSON text, title and metadata fields, the CSV title
    column, ...). Files already ingested keep their documents until they are ingested again
    (``upload_file_reingest``)."""
    _require_editor(actor)
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That corpus is not in your workspace.")
    corpus.parse_options = {**corpus.parse_options, **parse_options}
    for key in ("csv_title_column", "csv_group_by", "json_metadata_fields"):  # optional: blank clears them
        if key not in parse_options:
            corpus.parse_options.pop(key, None)
    corpus.save(update_fields=["parse_options"])
    return corpus


def upload_file_reingest(*, actor: Membership, item: UploadFile) -> None:
    """Queue a finished file to be ingested again from its stored bytes, with the corpus's parsing options as they
    are now (its documents are replaced, unchanged ones kept, vanished ones removed). Refused for a file whose bytes
    are gone (a failed file, an expanded archive, a file whose documents were all deleted): upload it again."""
    _require_editor(actor)
    if item.upload.corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That file is not in your workspace.")
    with transaction.atomic():
        again = UploadFile.objects.filter(pk=item.pk, stage__in=TERMINAL_STAGES).exclude(stored_path="")
        if not again.update(stage=Stage.QUEUED, error="", warnings=[], claimed_until=None):
            raise ValidationError(
                f"{item.name} cannot be ingested again: it is still being ingested, or its bytes are no longer kept"
                " (upload it again)."
            )
        transaction.on_commit(lambda: task_names.ingest_files_enqueue([item.pk]))


def _refuse_while_in_use(corpus: Corpus) -> None:
    contents = selectors.corpus_contents(corpus=corpus)
    if contents.runs_in_use:
        names = ", ".join(f"{run.pk} ({run.get_status_display().lower()})" for run in contents.runs_in_use)
        raise ValidationError(
            f"“{corpus.name}” is in use by run {names}; delete it once the run has finished or been cancelled."
        )
    if contents.files_in_progress:
        raise ValidationError(
            f"{contents.files_in_progress} file(s) of “{corpus.name}” are still being ingested;"
            " delete the corpus once they have finished."
        )


def corpus_delete(*, actor: Membership, corpus: Corpus) -> None:
    """Delete the corpus with its documents and uploads, then (once committed) both its indexes and its stored
    files. Refused while a queued or running run searches it or a worker is ingesting one of its files."""
    _require_editor(actor)
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That corpus is not in your workspace.")
    with transaction.atomic():
        locked = Corpus.objects.select_for_update().filter(pk=corpus.pk).first()
        if locked is None:
            return  # already deleted (a double submit)
        _refuse_while_in_use(locked)
        corpus_id = locked.pk
        locked.delete()

        def forget() -> None:
            corpus_index_drop(locked)
            storage.remove_corpus(corpus_id)

        transaction.on_commit(forget)


@dataclass(frozen=True)
class IncomingFile:
    """A file as received: its name and its bytes, in pieces (so large uploads are never held in memory)."""

    name: str
    chunks: Iterable[bytes]


def _stored_file(upload: Upload, corpus: Corpus, incoming: IncomingFile, room: int) -> UploadFile:
    """Store one file's bytes and its row; a file over the size limit, over the ``room`` left in the workspace's
    storage, or empty, is stored as failed with the reason and its bytes are not kept."""
    name = storage.safe_display_name(incoming.name)
    kept = quota.store_within(
        corpus_id=corpus.pk, workspace_id=corpus.workspace_id, name=name, chunks=incoming.chunks, room=room
    )
    stored = kept.stored
    item = UploadFile(
        upload=upload, name=name, size=stored.size, sha256=stored.sha256, stored_path=stored.relative_path
    )
    if kept.refused:
        item.stage, item.error = Stage.FAILED, kept.refused
    item.save()
    return item


def upload_create(*, actor: Membership, corpus: Corpus, files: Sequence[IncomingFile], enqueue: bool = True) -> Upload:
    """Store every file and queue each for ingestion after commit; an empty file, one over the size limit or one
    that does not fit in the workspace's storage (research/corpora/quota.py) fails alone (a row in stage Failed with
    the reason, its bytes not kept), the others go on.

    With ``enqueue=False`` nothing is queued: the caller ingests the files itself (the CLI's --sync).
    """
    _require_editor(actor)
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That corpus is not in your workspace.")
    if not files:
        raise ValidationError({"upload": "Choose at least one file."})
    with transaction.atomic():
        if not Corpus.objects.select_for_update().filter(pk=corpus.pk).exists():  # deleted since it was read
            raise ValidationError({"upload": f"“{corpus.name}” was deleted meanwhile; nothing was uploaded."})
        quota.lock(actor.workspace_id)
        room = quota.storage_limit() - quota.stored_bytes(actor.workspace_id)
        upload = Upload.objects.create(corpus=corpus, created_by=actor.user)
        items = []
        for incoming in files:
            items.append(item := _stored_file(upload, corpus, incoming, room))
            room -= item.size if item.stored_path else 0
        queued = [item.pk for item in items if item.stage == Stage.QUEUED]
        if enqueue:
            transaction.on_commit(lambda: task_names.ingest_files_enqueue(queued))
    return upload


def document_mark(*, actor: Membership, document: Document, internal: bool) -> None:
    """Mark a document as one of our own notes (left out of share links and exports) or not."""
    _require_editor(actor)
    if document.corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That document is not in your workspace.")
    Document.objects.filter(pk=document.pk).update(internal=internal)


def document_delete(*, actor: Membership, document: Document) -> None:
    """Remove a document from the database and from every index of its corpus."""
    _require_editor(actor)
    corpus = document.corpus
    if corpus.workspace_id != actor.workspace_id:
        raise PermissionDenied("That document is not in your workspace.")
    corpus_index(corpus).delete_documents([document.doc_id])
    with transaction.atomic():
        document.delete()
        Corpus.objects.filter(pk=corpus.pk).update(content_version=F("content_version") + 1)
        transaction.on_commit(lambda: task_names.sparse_refresh_enqueue(corpus.pk))
        orphan = _file_without_documents(document.upload_file_id)
        if orphan:  # the file's last document: its bytes no longer count against the workspace's storage
            transaction.on_commit(lambda: storage.remove(orphan))


def _file_without_documents(upload_file_id: int | None) -> str:
    """The stored path of an ingested file none of whose documents is left (its row forgets it), or ''."""
    if upload_file_id is None or Document.objects.filter(upload_file_id=upload_file_id).exists():
        return ""
    ingested = UploadFile.objects.filter(pk=upload_file_id, stage__in=(Stage.SEARCHABLE, Stage.INDEXED))
    item = ingested.exclude(stored_path="").first()
    if item is None:
        return ""
    UploadFile.objects.filter(pk=item.pk).update(stored_path="")
    return item.stored_path
