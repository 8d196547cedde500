"""A worker killed while it embeds a file (SIGKILL, half of the file's chunks moved into the dense index): the
file stays searchable by words, the sweep (real Celery beat) queues its vector stage again once the lease has
expired, a new worker finishes it, and every chunk ends in the dense index once, none left waiting."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from research.corpora import services
from research.models import Chunk, Membership, Stage, UploadFile
from research.platform.composition import corpus_index, corpus_index_forget
from tests.support import processes

pytestmark = pytest.mark.services

ROWS = 320  # one document per CSV row: five batches of 64 chunks, a second each (each renews the lease)


def _csv() -> bytes:
    lines = ["company,note"] + [f"Company {n},Company {n} renewed its plan in week {n % 52}." for n in range(ROWS)]
    return "\n".join(lines).encode()


READY = "warm-up tests.support.slow_model.install_slow_embedding done"


def test_a_file_whose_worker_dies_while_embedding_is_finished_by_another_without_duplicates(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path
) -> None:
    env = {
        **process_env,
        "INGEST_LEASE_SECONDS": "5",
        "RUN_SWEEP_SECONDS": "1",
        "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install_slow_embedding",
    }
    owner = Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(make_user()))
    corpus = services.corpus_create(actor=owner, name="Accounts")
    logs = {name: tmp_path / f"{name}.log" for name in ("first", "second", "beat")}
    beat = processes.start(processes.python("-m", "worker", "beat"), env=env, log=logs["beat"])
    first = processes.worker(env, logs["first"], "first", ready=READY)
    second = None
    try:
        upload = services.upload_create(
            actor=owner, corpus=corpus, files=[services.IncomingFile("accounts.csv", [_csv()])]
        )
        item = UploadFile.objects.get(upload=upload)
        processes.wait_for(
            lambda: "chunks embedded" in logs["first"].read_text(),
            timeout=120,
            what="the first batch of vectors",
            process=first,
            log=logs["first"],
        )
        processes.stop(first, sig=signal.SIGKILL)
        assert UploadFile.objects.get(pk=item.pk).stage == Stage.SEARCHABLE
        second = processes.worker(env, logs["second"], "second", ready=READY)
        processes.wait_for(
            lambda: UploadFile.objects.get(pk=item.pk).stage == Stage.INDEXED,
            timeout=120,
            what="the file's vectors, finished by the second worker",
            process=second,
            log=logs["second"],
        )
    finally:
        processes.stop_all(first, second, beat)

    item.refresh_from_db()
    assert item.attempts == 3  # words, vectors, vectors again
    corpus_index_forget(corpus.index_key)  # read what the workers wrote, not this process's cached view
    index = corpus_index(corpus)
    chunks = Chunk.objects.filter(document__corpus=corpus).count()
    assert chunks == ROWS
    assert (index.dense.count(), index.waiting(), index.sparse.count()) == (ROWS, 0, ROWS)
