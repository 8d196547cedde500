"""URL routes of the research app: each feature's ``urls.py``, included under its prefix. A feature's
``urlpatterns`` sit under its workspace (``w/<slug>/``) or a part of it; its ``public`` routes (share links,
invitation links, unsubscribing, the home page) sit at the top."""

from __future__ import annotations

from django.urls import include, path

from research.batches import urls as batches
from research.corpora import urls as corpora
from research.corpus_health import urls as corpus_health
from research.edits import urls as edits
from research.investigations import urls as investigations
from research.invitations import urls as invitations
from research.notifications import urls as notifications
from research.platform import views as platform
from research.runs import urls as runs
from research.schedules import urls as schedules
from research.sharing import urls as sharing
from research.timeline import urls as timeline
from research.web_sources import urls as web_sources
from research.workspaces import urls as workspaces

WORKSPACE = "w/<slug:slug>/"
INVESTIGATION = f"{WORKSPACE}investigations/<int:investigation_id>/"

urlpatterns = [
    path("healthz", platform.health, name="health"),
    path("", include(workspaces.public)),
    path("", include(sharing.public)),
    path("", include(invitations.public)),
    path("", include(schedules.public)),
    path("notifications/", include(notifications)),
    path(WORKSPACE, include(workspaces)),
    path(f"{WORKSPACE}icp/batches/", include(batches)),
    path(WORKSPACE, include(corpora)),
    path(f"{WORKSPACE}c/<slug:corpus_slug>/web/", include(web_sources)),
    path(f"{WORKSPACE}c/<slug:corpus_slug>/health/", include(corpus_health)),
    path(WORKSPACE, include(runs)),
    path(WORKSPACE, include(edits)),
    path(WORKSPACE, include(investigations)),
    path(f"{INVESTIGATION}links/", include(sharing)),
    path(f"{INVESTIGATION}", include(schedules)),
    path(f"{INVESTIGATION}", include(timeline)),
    path(f"{WORKSPACE}invitations/", include(invitations)),
]
