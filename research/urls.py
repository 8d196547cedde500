"""URL routes of the research app, one block per feature."""

from __future__ import annotations

from django.urls import path

from research.batches import views as batches
from research.corpora import views as corpora
from research.investigations import views as investigations
from research.invitations import views as invitations
from research.notifications import views as notifications
from research.platform import views as platform
from research.reporting import views as reporting
from research.runs.views import api as runs_api
from research.runs.views import pages as run_pages
from research.schedules import views as schedules
from research.sharing import views as sharing
from research.web import views as web
from research.workspaces import views as workspaces

CORPUS = "w/<slug:slug>/c/<slug:corpus_slug>/"
RUN = "w/<slug:slug>/runs/<int:run_id>"
INVESTIGATION = "w/<slug:slug>/investigations/<int:investigation_id>/"

urlpatterns = [
    path("healthz", platform.health, name="health"),
    # Workspaces and members
    path("", workspaces.home, name="home"),
    path("w/<slug:slug>/", workspaces.workspace_detail, name="workspace_detail"),
    path("w/<slug:slug>/members/", workspaces.member_add, name="member_add"),
    path("w/<slug:slug>/icp/", workspaces.icp_update, name="icp_update"),
    path("w/<slug:slug>/icp/batches/", batches.batch_create, name="batch_create"),
    path("w/<slug:slug>/icp/batches/<int:batch_id>/", batches.batch_page, name="batch_page"),
    path("w/<slug:slug>/icp/batches/<int:batch_id>/table/", batches.batch_table, name="batch_table"),
    path("w/<slug:slug>/icp/batches/<int:batch_id>/export.csv", batches.batch_export, name="batch_export"),
    path("w/<slug:slug>/members/<int:member_id>/remove/", workspaces.member_remove, name="member_remove"),
    # Corpora, uploads and documents
    path("w/<slug:slug>/corpora/", corpora.corpus_create, name="corpus_create"),
    path(CORPUS, corpora.corpus_detail, name="corpus_detail"),
    path(f"{CORPUS}uploads/", corpora.upload_create, name="upload_create"),
    path(f"{CORPUS}files/<int:file_id>/", corpora.upload_file_row, name="upload_file_row"),
    path(f"{CORPUS}d/<str:doc_id>/", corpora.document_detail, name="document_detail"),
    path(f"{CORPUS}d/<str:doc_id>/delete/", corpora.document_delete, name="document_delete"),
    path(f"{CORPUS}d/<str:doc_id>/internal/", corpora.document_internal, name="document_internal"),
    # Runs as JSON; w/<slug>/runs/ and w/<slug>/runs/<id>/ are left for the HTML pages.
    path("w/<slug:slug>/runs.json", runs_api.run_list, name="run_list_json"),
    path("w/<slug:slug>/runs/start/", runs_api.run_start, name="run_start"),
    path("w/<slug:slug>/runs/estimate/", runs_api.run_estimate, name="run_estimate"),
    path(f"{RUN}.json", runs_api.run_detail_json, name="run_detail_json"),
    path(f"{RUN}/events/", runs_api.run_events, name="run_events"),
    path(f"{RUN}/cancel/", runs_api.run_cancel, name="run_cancel"),
    # Run pages (HTML): the form and history, the live page, its graph, cancelling, the documents it found.
    path("w/<slug:slug>/runs/", run_pages.run_index, name="run_index"),
    path("w/<slug:slug>/runs/new/estimate/", run_pages.run_form_estimate, name="run_form_estimate"),
    path(f"{RUN}/", run_pages.run_page, name="run_page"),
    path(f"{RUN}/graph/", run_pages.run_graph_part, name="run_graph"),
    path(f"{RUN}/stop/", run_pages.run_stop, name="run_stop"),
    path(f"{RUN}/d/<str:doc_id>/", run_pages.run_document, name="run_document"),
    # Answers and reports: exports of a run's stored report
    path(f"{RUN}/report.<str:fmt>", reporting.report_export, name="report_export"),
    # Investigations: saved work, its runs over time, compare, sharing
    path("w/<slug:slug>/investigations/", investigations.investigation_index, name="investigation_index"),
    path(f"{RUN}/save/", investigations.run_save, name="run_save"),
    path(INVESTIGATION, investigations.investigation_page, name="investigation_page"),
    path(f"{INVESTIGATION}edit/", investigations.investigation_edit, name="investigation_edit"),
    path(f"{INVESTIGATION}rerun/", investigations.investigation_rerun, name="investigation_rerun"),
    path(f"{INVESTIGATION}archive/", investigations.investigation_archive, name="investigation_archive"),
    path(f"{INVESTIGATION}delete/", investigations.investigation_delete, name="investigation_delete"),
    path(f"{INVESTIGATION}share/", investigations.investigation_share, name="investigation_share"),
    path(f"{INVESTIGATION}compare/", investigations.investigation_compare, name="investigation_compare"),
    # Share links: managed on the investigation's page; the public read-only pages behind them
    path(f"{INVESTIGATION}links/", sharing.share_link_create, name="share_link_create"),
    path(f"{INVESTIGATION}links/<int:link_id>/revoke/", sharing.share_link_revoke, name="share_link_revoke"),
    path("s/<str:token>/", sharing.shared_page, name="shared_page"),
    path("s/<str:token>/c/<str:chunk_id>/", sharing.shared_chunk_page, name="shared_chunk"),
    path("w/<slug:slug>/web-default/", workspaces.workspace_web_default, name="workspace_web_default"),
    # Web pages of a corpus: added by address or sitemap, fetched by a worker, fetched again on demand
    path(f"{CORPUS}web/", web.web_pages, name="web_pages"),
    path(f"{CORPUS}web/add/", web.url_add, name="url_add"),
    path(f"{CORPUS}web/<int:page_id>/fetch/", web.page_refetch, name="page_refetch"),
    # Invitations: owners invite by e-mail on the workspace page; the link's page joins or creates an account
    path("w/<slug:slug>/invitations/", invitations.invitation_create, name="invitation_create"),
    path(
        "w/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        invitations.invitation_revoke,
        name="invitation_revoke",
    ),
    path("invite/<str:token>/", invitations.invitation_page, name="invitation_page"),
    # Schedules: the card of an investigation's page, digests, and the unsubscribe page e-mails link to
    path(f"{INVESTIGATION}schedule/", schedules.schedule_save, name="schedule_save"),
    path(f"{INVESTIGATION}schedule/pause/", schedules.schedule_pause, name="schedule_pause"),
    path(f"{INVESTIGATION}schedule/delete/", schedules.schedule_delete, name="schedule_delete"),
    path(f"{INVESTIGATION}schedule/test-email/", schedules.schedule_test_email, name="schedule_test_email"),
    path(f"{INVESTIGATION}schedule/mute/", schedules.schedule_mute, name="schedule_mute"),
    path(f"{INVESTIGATION}digests/<int:digest_id>/", schedules.digest_page, name="digest_page"),
    path("unsubscribe/<str:token>/", schedules.schedule_unsubscribe, name="schedule_unsubscribe"),
    # Notifications: the user's notices across workspaces
    path("notifications/", notifications.notification_list, name="notification_list"),
    path("notifications/<int:notification_id>/", notifications.notification_open, name="notification_open"),
    path("notifications/read/", notifications.notifications_read, name="notifications_read"),
]
