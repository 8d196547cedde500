"""The corpus tasks by name, and enqueueing them (the pipeline and services never import the task module)."""

from __future__ import annotations

from collections.abc import Iterable

from research.platform.queue import task_send

INGEST_FILE = "research.tasks.ingest_file"  # routed to the `ingest` queue (worker/queues.py)
INGEST_REFRESH_SPARSE = "research.tasks.ingest_refresh_sparse"
INGEST_REFINE = "research.tasks.ingest_refine"  # a searchable file's vectors, once no file waits for its words


def ingest_files_enqueue(upload_file_ids: Iterable[int]) -> None:
    for upload_file_id in upload_file_ids:
        task_send(INGEST_FILE, upload_file_id)


def sparse_refresh_enqueue(corpus_id: int, *, countdown: float | None = None) -> None:
    task_send(INGEST_REFRESH_SPARSE, corpus_id, countdown=countdown)


def refine_enqueue(upload_file_id: int, *, countdown: float | None = None) -> None:
    task_send(INGEST_REFINE, upload_file_id, countdown=countdown)
