"""The benchmarks as a Django app of their own, so their commands and Celery task live beside them."""

from __future__ import annotations

from django.apps import AppConfig


class BenchConfig(AppConfig):
    name = "research.bench"
    label = "bench"
    default_auto_field = "django.db.models.BigAutoField"
