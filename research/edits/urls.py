"""Analysts' edits of a run's report, under ``w/<slug>/runs/<id>/edits/`` (kept per investigation)."""

from __future__ import annotations

from django.urls import path

from research.edits import views

EDITS = "runs/<int:run_id>/edits/"

urlpatterns = [
    path(f"{EDITS}strike/", views.edit_strike, name="edit_strike"),
    path(f"{EDITS}pin/", views.edit_pin, name="edit_pin"),
    path(f"{EDITS}note/", views.edit_note, name="edit_note"),
    path(f"{EDITS}override/", views.edit_override, name="edit_override"),
    path(f"{EDITS}<int:edit_id>/undo/", views.edit_undo, name="edit_undo"),
]
