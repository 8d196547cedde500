"""ICP batches, under ``w/<slug>/icp/batches/``: start one from the workspace page's ICP card, its page,
its table and its CSV export."""

from __future__ import annotations

from django.urls import path

from research.batches import views

urlpatterns = [
    path("", views.batch_create, name="batch_create"),
    path("<int:batch_id>/", views.batch_page, name="batch_page"),
    path("<int:batch_id>/table/", views.batch_table, name="batch_table"),
    path("<int:batch_id>/export.csv", views.batch_export, name="batch_export"),
]
