"""Read-side queries of a corpus's health checks (within the member's workspace, by the corpus)."""

from __future__ import annotations

from django.http import Http404

from research.models import Corpus, CorpusHealth

HISTORY = 20  # checks the page lists


def health_history(*, corpus: Corpus) -> list[CorpusHealth]:
    """The corpus's latest checks, newest first, without their task rows (the history table's columns only)."""
    return list(CorpusHealth.objects.filter(corpus=corpus).defer("tasks").select_related("requested_by")[:HISTORY])


def health_get(*, corpus: Corpus, check_id: int) -> CorpusHealth:
    check = CorpusHealth.objects.filter(corpus=corpus, pk=check_id).select_related("requested_by").first()
    if check is None:
        raise Http404("No such check")
    return check
