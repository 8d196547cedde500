"""A throwaway workspace holding the demo corpus, and report runs executed in this process: what
``evaluate_reports`` and ``bench_reports`` measure on. Runs go through the worker's code path
(``run_execute``); the workspace is deleted afterwards (its corpora's indexes and files too)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from research.corpora import ingestion
from research.corpora import services as corpora
from research.demo.files import demo_corpus_files
from research.models import Chunk, Corpus, Membership, Run, RunTemplate, UploadFile, Workspace
from research.protocol.run_options import RunOptions
from research.runs import services as runs
from research.runs.execution import run_execute
from research.workspaces.services import workspace_create

TRIAL_USER = "report-evaluation"


@contextmanager
def in_process_events() -> Iterator[None]:
    """Run events go to an in-memory channel layer meanwhile: a trial's runs have no page watching them, so a
    trial needs no Redis."""
    with override_settings(CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}):
        yield


def trial_workspace(name: str) -> Membership:
    """A new workspace owned by the evaluation user (created once, with no usable password). The database is
    brought up to date first (as ``bench_events`` does): on a fresh clone nothing else has created it yet."""
    settings.DATA_DIR.mkdir(parents=True, exist_ok=True)
    call_command("migrate", interactive=False, verbosity=0)
    user, created = get_user_model().objects.get_or_create(username=TRIAL_USER)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    workspace = workspace_create(name=f"{name} {time.strftime('%Y-%m-%d %H:%M:%S')}", owner=user)
    return Membership.objects.select_related("workspace", "user").get(workspace=workspace, user=user)


Progress = Callable[[int, int], None]


def demo_corpus_ingest(owner: Membership, progress: Progress = lambda done, total: None) -> Corpus:
    """The demo corpus, ingested here and now (as the worker would), file by file."""
    return corpus_ingest(owner, "Demo corpus", demo_corpus_files(), progress)


def corpus_ingest(
    owner: Membership, name: str, files: Sequence[Path], progress: Progress = lambda done, total: None
) -> Corpus:
    """A corpus of these files, ingested here and now (as the worker would), file by file."""
    corpus = corpora.corpus_create(actor=owner, name=name)
    incoming = [corpora.IncomingFile(name=path.name, chunks=[path.read_bytes()]) for path in files]
    upload = corpora.upload_create(actor=owner, corpus=corpus, files=incoming, enqueue=False)
    items = list(UploadFile.objects.filter(upload=upload))
    for number, item in enumerate(items, start=1):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
        progress(number, len(items))
    ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    return corpus


def chunk_texts(corpus: Corpus) -> dict[tuple[str, str], str]:
    """(doc_id, chunk_id) -> text, for every chunk of the corpus."""
    rows = Chunk.objects.filter(document__corpus=corpus).values_list("document__doc_id", "chunk_id", "text")
    return {(doc_id, chunk_id): text for doc_id, chunk_id, text in rows}


def trial_run(owner: Membership, corpus: Corpus, template: str, **options: Any) -> tuple[Run, float]:
    """Start and execute a run here; its wall time in seconds. ``as_of`` (an ICP check's window end) goes into
    the run's options; a free question takes ``question``, a report ``company``."""
    as_of = options.pop("as_of", None)
    question = options.pop("question", "")
    run = runs.run_start(
        actor=owner,
        question=question,
        corpora=[corpus],
        template=template or RunTemplate.QUESTION,
        enqueue=False,
        **options,
    )
    if as_of:
        Run.objects.filter(pk=run.pk).update(options=RunOptions.of(run.options).with_as_of(as_of).as_json())
    started = time.perf_counter()
    run_execute(run_id=run.pk)
    return Run.objects.get(pk=run.pk), time.perf_counter() - started


def trial_clean(owner: Membership) -> None:
    """Delete the trial workspace: its corpora (indexes and stored files) and runs."""
    for corpus in Corpus.objects.filter(workspace=owner.workspace):
        corpora.corpus_delete(actor=owner, corpus=corpus)
    Workspace.objects.filter(pk=owner.workspace_id).delete()
