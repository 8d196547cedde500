"""A corpus's web pages, under ``w/<slug>/c/<corpus slug>/web/``: added by address or sitemap, fetched by a
worker, fetched again on demand."""

from __future__ import annotations

from django.urls import path

from research.web_sources import views

urlpatterns = [
    path("", views.web_pages, name="web_pages"),
    path("add/", views.url_add, name="url_add"),
    path("<int:page_id>/fetch/", views.page_refetch, name="page_refetch"),
]
