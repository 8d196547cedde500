"""Reading a corpus's web pages: the list its page shows, and whether one is still on its way."""

from __future__ import annotations

from django.db.models import QuerySet

from research.models import Corpus, WebPage

PENDING = ("queued", "fetching")
SHOWN = 100


def web_pages_of(*, corpus: Corpus) -> QuerySet[WebPage]:
    return corpus.web_pages.select_related("document").order_by("-created_at", "-id")


def web_pages_busy(*, corpus: Corpus) -> bool:
    return corpus.web_pages.filter(outcome__in=PENDING).exists()
