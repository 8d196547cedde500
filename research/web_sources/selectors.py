"""Reading a corpus's web pages: the list its page shows, and whether one is still on its way."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from research.models import Corpus, WebPage

PENDING = ("queued", "fetching")
STALE_MINUTES = 15
SHOWN = 100


def web_pages_of(*, corpus: Corpus) -> QuerySet[WebPage]:
    return corpus.web_pages.select_related("document").order_by("-created_at", "-id")


def web_pages_busy(*, corpus: Corpus) -> bool:
    """Whether a page is on its way (a row left pending by a worker that died stops counting after a while)."""
    recent = timezone.now() - timedelta(minutes=STALE_MINUTES)
    return corpus.web_pages.filter(outcome__in=PENDING, updated_at__gte=recent).exists()
