"""Investigations, under ``w/<slug>/``: saved work, its runs over time, compare, sharing with members; saving
a run (``runs/<id>/save/``) starts or extends one."""

from __future__ import annotations

from django.urls import path

from research.investigations import views

INVESTIGATION = "investigations/<int:investigation_id>/"

urlpatterns = [
    path("investigations/", views.investigation_index, name="investigation_index"),
    path("runs/<int:run_id>/save/", views.run_save, name="run_save"),
    path(INVESTIGATION, views.investigation_page, name="investigation_page"),
    path(f"{INVESTIGATION}edit/", views.investigation_edit, name="investigation_edit"),
    path(f"{INVESTIGATION}rerun/", views.investigation_rerun, name="investigation_rerun"),
    path(f"{INVESTIGATION}archive/", views.investigation_archive, name="investigation_archive"),
    path(f"{INVESTIGATION}delete/", views.investigation_delete, name="investigation_delete"),
    path(f"{INVESTIGATION}share/", views.investigation_share, name="investigation_share"),
    path(f"{INVESTIGATION}compare/", views.investigation_compare, name="investigation_compare"),
]
