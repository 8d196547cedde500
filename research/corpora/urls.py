"""Corpora, under ``w/<slug>/``: create one, its page (``c/<corpus slug>/``), uploads, files and documents."""

from __future__ import annotations

from django.urls import path

from research.corpora import views

CORPUS = "c/<slug:corpus_slug>/"

urlpatterns = [
    path("corpora/", views.corpus_create, name="corpus_create"),
    path("corpora/live/", views.corpora_live, name="corpora_live"),
    path(CORPUS, views.corpus_detail, name="corpus_detail"),
    path(f"{CORPUS}live/", views.corpus_live, name="corpus_live"),
    path(f"{CORPUS}parsing/", views.corpus_parsing, name="corpus_parsing"),
    path(f"{CORPUS}uploads/", views.upload_create, name="upload_create"),
    path(f"{CORPUS}files/<int:file_id>/", views.upload_file_row, name="upload_file_row"),
    path(f"{CORPUS}files/<int:file_id>/reingest/", views.upload_file_reingest, name="upload_file_reingest"),
    path(f"{CORPUS}d/<str:doc_id>/", views.document_detail, name="document_detail"),
    path(f"{CORPUS}d/<str:doc_id>/delete/", views.document_delete, name="document_delete"),
    path(f"{CORPUS}d/<str:doc_id>/internal/", views.document_internal, name="document_internal"),
]
