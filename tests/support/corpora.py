"""Waiting on ingestion in tests that run a real worker."""

from __future__ import annotations

from research.corpora import services
from research.models import Corpus, Membership, Stage, UploadFile
from tests.support import processes


def corpus_indexed(corpus: Corpus, count: int) -> bool:
    """Whether ``count`` uploaded files of ``corpus`` are indexed and its BM25 index holds them all."""
    files = UploadFile.objects.filter(upload__corpus=corpus)
    corpus.refresh_from_db()
    done = files.count() == count and all(item.stage == Stage.INDEXED for item in files)
    return done and corpus.content_version > 0 and corpus.sparse_version == corpus.content_version


def ingest_with_worker(
    owner: Membership, corpus: Corpus, files: dict[str, bytes], stack: processes.WebAndWorker
) -> None:
    """Upload ``files`` into ``corpus`` and wait until the running worker has indexed them all."""
    services.upload_create(actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in files.items()])
    wait_indexed(corpus, len(files), stack)


def wait_indexed(corpus: Corpus, count: int, stack: processes.WebAndWorker) -> None:
    """Wait until the running worker has indexed ``count`` uploaded files of ``corpus`` (bounded)."""
    processes.wait_for(
        lambda: corpus_indexed(corpus, count),
        timeout=180,
        what="ingestion",
        process=stack.worker,
        log=stack.logs["worker"],
    )
