"""Celery tasks of corpora: thin wrappers that take ids and call the ingestion pipeline."""

from __future__ import annotations

from collections.abc import Callable

from celery import Task, shared_task

from research.corpora import ingestion, lease, task_names
from research.models import UploadFile
from research.retrieval.chroma_client import STORE_UNAVAILABLE
from research.retrieval.embedders import EmbeddingUnavailable

INGEST_RETRIES = 5
TRANSIENT: tuple[type[Exception], ...] = (EmbeddingUnavailable, *STORE_UNAVAILABLE)
REFINE_WAIT = 2.0  # seconds before asking again whether every file of the corpus is searchable


# max_retries: Celery's default (3) is below INGEST_RETRIES, and its own refusal left a file stuck, never failed
@shared_task(name=task_names.INGEST_FILE, bind=True, acks_late=True, ignore_result=True, max_retries=INGEST_RETRIES)
def ingest_file(self: Task, upload_file_id: int) -> None:  # type: ignore[type-arg]
    """A file to searchable by words; its vectors are a task of their own (``ingest_refine``)."""
    corpus_id = _retrying(
        self, upload_file_id, lambda: ingestion.upload_file_ingest_safely(upload_file_id=upload_file_id, refine=False)
    )
    if corpus_id is not None:
        task_names.sparse_refresh_enqueue(corpus_id, countdown=1)
        task_names.refine_enqueue(upload_file_id, countdown=1)


@shared_task(name=task_names.INGEST_REFINE, bind=True, acks_late=True, ignore_result=True, max_retries=INGEST_RETRIES)
def ingest_refine(self: Task, upload_file_id: int) -> None:  # type: ignore[type-arg]
    """A searchable file's vectors, once no file of its corpus waits for its words (those come first)."""
    corpus_id = UploadFile.objects.filter(pk=upload_file_id).values_list("upload__corpus_id", flat=True).first()
    if corpus_id is None:
        return  # deleted meanwhile
    if ingestion.words_pending(corpus_id):
        task_names.refine_enqueue(upload_file_id, countdown=REFINE_WAIT)
        return
    _retrying(self, upload_file_id, lambda: ingestion.upload_file_refine_safely(upload_file_id=upload_file_id))


def _retrying(task: Task, upload_file_id: int, step: Callable[[], int | None]) -> int | None:  # type: ignore[type-arg]
    """``step``, retried with backoff while the embedding service or the Chroma server is unavailable, then failing
    the file."""
    try:
        return step()
    except TRANSIENT as error:
        if task.request.retries >= INGEST_RETRIES:
            what = "embedding service" if isinstance(error, EmbeddingUnavailable) else "Chroma server"
            reason = f"{what} unavailable after {INGEST_RETRIES} retries: {error}"
            ingestion.fail_by_id(upload_file_id, reason)
            return None
        raise task.retry(countdown=min(300, 5 * 2**task.request.retries)) from error


@shared_task(name=task_names.INGEST_REFRESH_SPARSE, acks_late=True, ignore_result=True)
def ingest_refresh_sparse(corpus_id: int) -> None:
    ingestion.corpus_refresh_sparse(corpus_id=corpus_id)


@shared_task(name="research.tasks.sweep_ingest", ignore_result=True)
def sweep_ingest() -> None:
    """Celery beat's periodic sweep of files whose worker died (on the default queue: busy ingest workers never
    delay it)."""
    lease.sweep_stuck()
