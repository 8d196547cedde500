"""Context-1 Web: the Django project (settings, URLs, ASGI and Celery wiring)."""

from __future__ import annotations

from context1_web.celery import app as celery_app

__all__ = ["celery_app"]
