"""Runs, under ``w/<slug>/``: as JSON (``runs.json``, ``runs/<id>.json``, start, estimate, events, cancel; the
API), and as pages (the form and history, the live page, its graph, stopping, the documents it found, its
report's exports)."""

from __future__ import annotations

from django.urls import path

from research.runs.views import api, exports, pages

RUN = "runs/<int:run_id>"

urlpatterns = [
    # As JSON; runs/ and runs/<id>/ are left for the HTML pages.
    path("runs.json", api.run_list, name="run_list_json"),
    path("runs/start/", api.run_start, name="run_start"),
    path("runs/estimate/", api.run_estimate, name="run_estimate"),
    path(f"{RUN}.json", api.run_detail_json, name="run_detail_json"),
    path(f"{RUN}/events/", api.run_events, name="run_events"),
    path(f"{RUN}/cancel/", api.run_cancel, name="run_cancel"),
    # Pages
    path("runs/", pages.run_index, name="run_index"),
    path("runs/new/estimate/", pages.run_form_estimate, name="run_form_estimate"),
    path(f"{RUN}/", pages.run_page, name="run_page"),
    path(f"{RUN}/graph/", pages.run_graph_part, name="run_graph"),
    path(f"{RUN}/answer/", pages.run_answer, name="run_answer"),
    path(f"{RUN}/stop/", pages.run_stop, name="run_stop"),
    path(f"{RUN}/d/<str:doc_id>/", pages.run_document, name="run_document"),
    path(f"{RUN}/report.<str:fmt>", exports.report_export, name="report_export"),
]
