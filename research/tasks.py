"""Celery tasks: thin wrappers that take ids and call services."""

from __future__ import annotations

import socket

from celery import Task, shared_task

from research import ingestion
from research.realtime import publish
from research.retrieval.embedders import EmbeddingUnavailable

INGEST_RETRIES = 5


@shared_task(name="research.tasks.system_ping", acks_late=True, ignore_result=True)
def system_ping(*, group: str, token: str) -> None:
    """Round trip probe: a worker on this task's queue publishes ``token`` to ``group`` (see `manage.py doctor`)."""
    publish(group, {"type": "ping", "token": token, "worker": socket.gethostname()})


@shared_task(name="research.tasks.ingest_file", bind=True, acks_late=True, ignore_result=True)
def ingest_file(self: Task, upload_file_id: int) -> None:  # type: ignore[type-arg]
    try:
        corpus_id = ingestion.upload_file_ingest_safely(upload_file_id=upload_file_id)
    except EmbeddingUnavailable as error:
        if self.request.retries >= INGEST_RETRIES:
            ingestion.fail_by_id(
                upload_file_id, f"embedding service unavailable after {INGEST_RETRIES} retries: {error}"
            )
            return
        raise self.retry(countdown=min(300, 5 * 2**self.request.retries)) from error
    if corpus_id is not None:
        ingest_refresh_sparse.apply_async((corpus_id,), countdown=1)


@shared_task(name="research.tasks.ingest_refresh_sparse", acks_late=True, ignore_result=True)
def ingest_refresh_sparse(corpus_id: int) -> None:
    ingestion.corpus_refresh_sparse(corpus_id=corpus_id)
