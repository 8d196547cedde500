"""`manage.py ingest`: upload files or folders into a corpus from the command line, with progress."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.corpora import ingestion, services
from research.corpora.selectors import corpus_find
from research.models import TERMINAL_STAGES, Corpus, Membership, Role, Stage, UploadFile


def _files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")))
        elif path.is_file():
            found.append(path)
        else:
            raise CommandError(f"no such file or folder: {raw}")
    return found


def _read(path: Path) -> Any:
    with path.open("rb") as handle:
        while block := handle.read(2**20):
            yield block


class Command(BaseCommand):
    help = "Upload files (or folders, recursively) into a corpus of a workspace and ingest them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+")
        parser.add_argument("--workspace", required=True, help="workspace slug")
        parser.add_argument("--corpus", required=True, help="corpus name (any case) or slug (created with --create)")
        parser.add_argument("--create", action="store_true", help="create the corpus if it does not exist")
        parser.add_argument("--user", help="act as this member (default: the workspace's first owner)")
        parser.add_argument("--sync", action="store_true", help="ingest in this process instead of the workers")
        parser.add_argument("--wait", action="store_true", help="queue for the workers and follow the progress")
        parser.add_argument(
            "--csv-mode", choices=("row", "table"), help="new corpus: one document per CSV row or table"
        )
        parser.add_argument("--json-text-field", help="new corpus: the JSON field holding a document's text")
        parser.add_argument("--json-title-field", help="new corpus: the JSON field holding a document's title")

    def handle(self, *args: Any, **options: Any) -> None:
        actor = self._actor(options["workspace"], options["user"])
        corpus = self._corpus(actor, options)
        files = [services.IncomingFile(name=path.name, chunks=_read(path)) for path in _files(options["paths"])]
        upload = services.upload_create(actor=actor, corpus=corpus, files=files, enqueue=not options["sync"])
        self.stdout.write(f"upload {upload.pk}: {len(files)} file(s) into {corpus.name!r}")
        if options["sync"]:
            self._ingest_here(upload.pk, corpus.pk)
        elif options["wait"]:
            self._follow(upload.pk)

    def _corpus(self, actor: Membership, options: dict[str, Any]) -> Corpus:
        """The corpus of this name (any case) or slug in the actor's workspace; created with --create."""
        try:
            return corpus_find(name_or_slug=options["corpus"], workspace_slug=actor.workspace.slug)
        except LookupError as error:
            if not options["create"]:
                raise CommandError(f"{error} (add --create)") from error
        parse_options = {
            key: options[key] for key in ("csv_mode", "json_text_field", "json_title_field") if options[key]
        }
        try:
            return services.corpus_create(actor=actor, name=options["corpus"], parse_options=parse_options)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error

    def _actor(self, workspace_slug: str, username: str | None) -> Membership:
        members = Membership.objects.select_related("workspace", "user").filter(workspace__slug=workspace_slug)
        member = (
            members.filter(user__username=username).first() if username else members.filter(role=Role.OWNER).first()
        )
        if member is None:
            raise CommandError(f"no such workspace or member: {workspace_slug} {username or '(owner)'}")
        return member

    def _ingest_here(self, upload_id: int, corpus_id: int) -> None:
        """Words first for every file (searchable once BM25 is refreshed), then every file's vectors."""
        done: set[int] = set()
        while pending := list(UploadFile.objects.filter(upload_id=upload_id).exclude(pk__in=done).order_by("id")):
            for item in pending:
                if not item.done:
                    ingestion.upload_file_ingest_safely(upload_file_id=item.pk, refine=False)
                done.add(item.pk)
                self._report(UploadFile.objects.get(pk=item.pk))
        ingestion.corpus_refresh_sparse(corpus_id=corpus_id)
        self.stdout.write("BM25 index refreshed: searchable by words")
        for item in UploadFile.objects.filter(upload_id=upload_id, stage=Stage.SEARCHABLE).order_by("id"):
            ingestion.upload_file_refine_safely(upload_file_id=item.pk)
            self._report(UploadFile.objects.get(pk=item.pk))

    def _follow(self, upload_id: int, timeout: float = 3600) -> None:
        seen: dict[int, str] = {}
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            items = list(UploadFile.objects.filter(upload_id=upload_id).order_by("id"))
            for item in items:
                if seen.get(item.pk) != item.stage:
                    seen[item.pk] = item.stage
                    self._report(item)
            if items and all(item.stage in TERMINAL_STAGES for item in items):
                return
            time.sleep(0.5)
        raise CommandError("gave up waiting; the workers may not be running")

    def _report(self, item: UploadFile) -> None:
        detail = f": {item.error}" if item.error else ""
        if item.stage == "indexed":
            detail = (
                f": {item.documents_added} new/changed, {item.documents_unchanged} unchanged,"
                f" {item.chunks_added} chunks"
            )
        self.stdout.write(f"  {item.name}  [{item.get_stage_display()}]{detail}")
