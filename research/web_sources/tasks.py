"""Celery task of web sources: a page or a sitemap added to a corpus, fetched by a worker (the `ingest` queue)."""

from __future__ import annotations

from celery import shared_task

from research.web_sources import services
from research.web_sources.task_names import INGEST_URL


@shared_task(name=INGEST_URL, acks_late=True, ignore_result=True)
def ingest_url(page_id: int, sitemap: bool, limit: int, user_id: int | None) -> None:
    """Fetch the page (or the sitemap's pages) into its corpus; a redelivery fetches again, which changes
    nothing when the page has not changed."""
    services.url_ingest(page_id=page_id, sitemap=sitemap, limit=limit, user_id=user_id)
