"""The web sources' Celery task by name (services enqueue it without importing the tasks module)."""

from __future__ import annotations

INGEST_URL = "research.tasks.ingest_url"  # a page or a sitemap added to a corpus (the `ingest` queue)
