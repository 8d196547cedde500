"""A corpus's health checks, under ``w/<slug>/c/<corpus slug>/health/``: the page with the history, a check started,
a check's status (polled while it runs)."""

from __future__ import annotations

from django.urls import path

from research.corpus_health import views

urlpatterns = [
    path("", views.health_page, name="corpus_health"),
    path("start/", views.health_start, name="corpus_health_start"),
    path("<int:check_id>/", views.health_page, name="corpus_health_check"),
    path("<int:check_id>/status/", views.health_status, name="corpus_health_status"),
    path("<int:check_id>/tasks.jsonl", views.health_tasks, name="corpus_health_tasks"),
    path("corpus.jsonl", views.health_corpus, name="corpus_health_corpus"),
]
