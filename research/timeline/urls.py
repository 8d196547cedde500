"""The timeline's downloads, under an investigation (``w/<slug>/investigations/<id>/``)."""

from __future__ import annotations

from django.urls import path

from research.timeline import views

urlpatterns = [
    path("timeline.<str:fmt>", views.timeline_export, name="timeline_export"),
]
