"""Fixtures for run tests: a small ingested corpus (hashing embedder, real Chroma and BM25) and runs."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from django.db import connection, connections

from research.corpora import ingestion, services
from research.models import Corpus, Membership, Run, RunEvent, UploadFile, Workspace
from research.runs import services as runs

FILES = {
    "press.txt": b"Halvorix announced Project Halyard, sponsored by Dana Okonkwo.",
    "bio.txt": b"Dana Okonkwo previously led storage at Stellique Data.",
    "menu.txt": b"Soup and bread on Monday.",
}
T = TypeVar("T")
QUESTION = "Who sponsors Project Halyard and where did they work before?"


def ingest(owner: Membership, name: str, files: dict[str, bytes]) -> Corpus:
    """A corpus ingested here and now, as the worker would (no queue)."""
    corpus = services.corpus_create(actor=owner, name=name)
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in files.items()], enqueue=False
    )
    for item in UploadFile.objects.filter(upload=upload):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    return corpus


@pytest.fixture
def owner(make_user: Callable[..., Any], make_workspace: Callable[..., Workspace]) -> Membership:
    return Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(make_user()))


@pytest.fixture
def corpus(owner: Membership) -> Corpus:
    return ingest(owner, "Market", FILES)


@pytest.fixture
def start_run(owner: Membership, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    """Start runs without sending messages (tests call the worker side themselves)."""
    monkeypatch.setattr(runs, "run_enqueue", lambda run_id: None)

    def start(corpora: list[Corpus], **options: Any) -> Run:
        return runs.run_start(actor=owner, question=options.pop("question", QUESTION), corpora=corpora, **options)

    return start


@pytest.fixture(autouse=True)
def _close_thread_connections() -> Iterator[None]:
    """Writer threads close their own connections; make sure none is left for the database teardown."""
    yield
    connections.close_all()


def in_thread(function: Callable[..., T], **kwargs: Any) -> T:
    """Call ``function`` in a thread the test started, closing that thread's database connection after."""
    try:
        return function(**kwargs)
    finally:
        connection.close()


def at_once(function: Callable[..., T], times: int, **kwargs: Any) -> list[T]:
    """Call ``function`` from ``times`` threads released together; their results (a bounded wait)."""
    barrier, results = threading.Barrier(times), []

    def call() -> None:
        barrier.wait(timeout=10)
        results.append(in_thread(function, **kwargs))

    threads = [threading.Thread(target=call) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(results) == times, "a thread failed or did not finish"
    return results


def seqs(run: Run) -> list[int]:
    return list(RunEvent.objects.filter(run=run).order_by("seq").values_list("seq", flat=True))


def types(run: Run) -> list[str]:
    return list(RunEvent.objects.filter(run=run).order_by("seq").values_list("type", flat=True))
