"""Celery tasks of corpora: thin wrappers that take ids and call the ingestion pipeline."""

from __future__ import annotations

from celery import Task, shared_task

from research.corpora import ingestion, jobs
from research.retrieval.embedders import EmbeddingUnavailable

INGEST_RETRIES = 5


@shared_task(name=jobs.INGEST_FILE, bind=True, acks_late=True, ignore_result=True)
def ingest_file(self: Task, upload_file_id: int) -> None:  # type: ignore[type-arg]
    try:
        corpus_id = ingestion.upload_file_ingest_safely(upload_file_id=upload_file_id)
    except EmbeddingUnavailable as error:
        if self.request.retries >= INGEST_RETRIES:
            reason = f"embedding service unavailable after {INGEST_RETRIES} retries: {error}"
            ingestion.fail_by_id(upload_file_id, reason)
            return
        raise self.retry(countdown=min(300, 5 * 2**self.request.retries)) from error
    if corpus_id is not None:
        jobs.sparse_refresh_enqueue(corpus_id, countdown=1)


@shared_task(name=jobs.INGEST_REFRESH_SPARSE, acks_late=True, ignore_result=True)
def ingest_refresh_sparse(corpus_id: int) -> None:
    ingestion.corpus_refresh_sparse(corpus_id=corpus_id)
