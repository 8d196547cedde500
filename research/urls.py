"""URL routes of the research app."""

from __future__ import annotations

from django.urls import path

from research.views import corpora, health, run_pages, runs, workspaces

urlpatterns = [
    path("", workspaces.home, name="home"),
    path("healthz", health.health, name="health"),
    path("w/<slug:slug>/", workspaces.workspace_detail, name="workspace_detail"),
    path("w/<slug:slug>/members/", workspaces.member_add, name="member_add"),
    path("w/<slug:slug>/corpora/", corpora.corpus_create, name="corpus_create"),
    path("w/<slug:slug>/c/<slug:corpus_slug>/", corpora.corpus_detail, name="corpus_detail"),
    path("w/<slug:slug>/c/<slug:corpus_slug>/uploads/", corpora.upload_create, name="upload_create"),
    path("w/<slug:slug>/c/<slug:corpus_slug>/files/<int:file_id>/", corpora.upload_file_row, name="upload_file_row"),
    path("w/<slug:slug>/c/<slug:corpus_slug>/d/<str:doc_id>/", corpora.document_detail, name="document_detail"),
    path("w/<slug:slug>/c/<slug:corpus_slug>/d/<str:doc_id>/delete/", corpora.document_delete, name="document_delete"),
    # Runs as JSON; w/<slug>/runs/ and w/<slug>/runs/<id>/ are left for the HTML pages.
    path("w/<slug:slug>/runs.json", runs.run_list, name="run_list_json"),
    path("w/<slug:slug>/runs/start/", runs.run_start, name="run_start"),
    path("w/<slug:slug>/runs/estimate/", runs.run_estimate, name="run_estimate"),
    path("w/<slug:slug>/runs/<int:run_id>.json", runs.run_detail_json, name="run_detail_json"),
    path("w/<slug:slug>/runs/<int:run_id>/events/", runs.run_events, name="run_events"),
    path("w/<slug:slug>/runs/<int:run_id>/cancel/", runs.run_cancel, name="run_cancel"),
    # Run pages (HTML): the form and history, the live page, its graph, cancelling, the documents it found.
    path("w/<slug:slug>/runs/", run_pages.run_index, name="run_index"),
    path("w/<slug:slug>/runs/new/estimate/", run_pages.run_form_estimate, name="run_form_estimate"),
    path("w/<slug:slug>/runs/<int:run_id>/", run_pages.run_page, name="run_page"),
    path("w/<slug:slug>/runs/<int:run_id>/graph/", run_pages.run_graph_part, name="run_graph"),
    path("w/<slug:slug>/runs/<int:run_id>/stop/", run_pages.run_stop, name="run_stop"),
    path("w/<slug:slug>/runs/<int:run_id>/d/<str:doc_id>/", run_pages.run_document, name="run_document"),
]
