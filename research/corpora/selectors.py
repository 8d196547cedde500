"""Read-side queries of corpora, uploads, documents and chunks, always within a member's workspace."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, QuerySet, Sum
from django.http import Http404
from django.utils import timezone

from research.corpora.estimate import embedding_estimate
from research.models import (
    TERMINAL_STAGES,
    Chunk,
    Corpus,
    Document,
    Membership,
    Run,
    RunStatus,
    Stage,
    Upload,
    UploadFile,
    Workspace,
)

# A file unfinished for longer is stuck (its worker died), not busy: it blocks neither deleting nor re-indexing.
STUCK_AFTER = timedelta(minutes=30)
_READ_BY_OPTIONS = frozenset({".csv", ".tsv", ".json", ".jsonl", ".ndjson"})  # files the parsing options shape


@dataclass(frozen=True)
class CorpusContents:
    """What deleting a corpus removes, and what stops it now."""

    documents: int
    chunks: int
    files: int
    runs_in_use: list[Run]
    files_in_progress: int


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


def corpus_find(*, name_or_slug: str, workspace_slug: str | None = None) -> Corpus:
    """The corpus with this name (any case) or, failing that, this slug, in the named workspace or in any: for
    the command line, which acts for whoever runs it. LookupError with what to do when none or several match."""
    corpora = Corpus.objects.select_related("workspace").order_by("workspace__slug", "id")
    if workspace_slug is not None:
        if not Workspace.objects.filter(slug=workspace_slug).exists():
            raise LookupError(f"no workspace {workspace_slug!r}")
        corpora = corpora.filter(workspace__slug=workspace_slug)
    wanted = name_or_slug.strip().casefold()
    found = [corpus for corpus in corpora if corpus.name.casefold() == wanted]
    found = found or [corpus for corpus in corpora if corpus.slug == name_or_slug.strip()]
    where = f" in workspace {workspace_slug!r}" if workspace_slug else ""
    if not found:
        raise LookupError(f"no corpus named {name_or_slug!r} (nor with that slug){where}")
    if len(found) > 1:
        places = ", ".join(corpus.workspace.slug for corpus in found)
        raise LookupError(f"more than one corpus named {name_or_slug!r}: in workspaces {places} (use --workspace)")
    return found[0]


def corpus_runs_in_use(*, corpus: Corpus) -> list[Run]:
    """The runs that will search the corpus or are searching it now (queued or running)."""
    active = (RunStatus.QUEUED, RunStatus.RUNNING)
    return list(Run.objects.filter(corpora=corpus, status__in=active).order_by("id"))


def corpus_contents(*, corpus: Corpus) -> CorpusContents:
    files = UploadFile.objects.filter(upload__corpus=corpus)
    recent = timezone.now() - STUCK_AFTER
    return CorpusContents(
        documents=Document.objects.filter(corpus=corpus).count(),
        chunks=Document.objects.filter(corpus=corpus).aggregate(total=Sum("chunk_count"))["total"] or 0,
        files=files.count(),
        runs_in_use=corpus_runs_in_use(corpus=corpus),
        files_in_progress=files.exclude(stage__in=TERMINAL_STAGES).filter(updated_at__gte=recent).count(),
    )


def files_refining(*, corpus: Corpus) -> int:
    """Files of the corpus searchable by words whose vectors are still being computed."""
    return UploadFile.objects.filter(upload__corpus=corpus, stage=Stage.SEARCHABLE).count()


def upload_list(*, corpus: Corpus, limit: int = 10) -> list[Upload]:
    uploads = list(Upload.objects.filter(corpus=corpus).order_by("-created_at", "-id")[:limit])
    files = UploadFile.objects.filter(upload__in=uploads).select_related("upload__corpus__workspace").order_by("id")
    by_upload: dict[int, list[UploadFile]] = {}
    for item in files:
        _annotate(item)
        by_upload.setdefault(item.upload_id, []).append(item)
    for upload in uploads:
        upload.file_list = by_upload.get(upload.pk, [])  # type: ignore[attr-defined]
    return uploads


def uploads_busy(*, uploads: list[Upload]) -> bool:
    """Whether a file of these uploads is still on its way (the corpus page then polls for its progress)."""
    return any(not item.done for upload in uploads for item in upload.file_list)  # type: ignore[attr-defined]


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
    _annotate(item)
    return item


def _annotate(item: UploadFile) -> None:
    """What a file's row shows beside its stage: its embedding estimate, its problems (``warnings``' lines), which
    fields a record format was read from ("text from 'texte', title from 'titre'", stored in ``warnings`` as
    ``{"fields": ...}`` by the ingestion) and whether it can be ingested again (its bytes are kept)."""
    item.estimate = embedding_estimate(item.chunks_added)  # type: ignore[attr-defined]
    warnings = item.warnings if isinstance(item.warnings, list) else []
    item.problems = [line for line in warnings if isinstance(line, str)]  # type: ignore[attr-defined]
    chosen: dict[str, str] = next(
        (entry["fields"] for entry in warnings if isinstance(entry, dict) and "fields" in entry), {}
    )
    item.fields_line = fields_line(chosen)  # type: ignore[attr-defined]
    # what a change of the corpus's parsing options changes: CSV and JSON files (any finished file may be, though)
    tabular = posixpath.splitext(item.name)[1].lower() in _READ_BY_OPTIONS
    item.can_reingest = item.done and bool(item.stored_path) and tabular  # type: ignore[attr-defined]


def fields_line(chosen: dict[str, str]) -> str:
    """Which fields a file's parts were read from, in words: "text from 'texte', title from 'titre'"."""
    parts = []
    for role in ("text", "title", "date"):
        name = chosen.get(role)
        if name == "*":
            parts.append(f"{role} from every field (a record)")
        elif name:
            parts.append(f"{role} from '{name}'")
    return ", ".join(parts)


def document_texts(*, corpus: Corpus) -> list[tuple[str, str, str]]:
    """(doc id, title, text) of every document of the corpus, its text its chunks' in order (what was indexed)."""
    texts: dict[int, list[str]] = {}
    rows = Chunk.objects.filter(document__corpus=corpus).order_by("document_id", "index")
    for document_id, text in rows.values_list("document_id", "text").iterator():
        texts.setdefault(document_id, []).append(text)
    documents = Document.objects.filter(corpus=corpus).order_by("doc_id").values_list("pk", "doc_id", "title")
    return [(doc_id, title, "\n".join(texts.get(pk, []))) for pk, doc_id, title in documents if pk in texts]
