"""WebSocket routes."""

from __future__ import annotations

from django.urls import path

from research.runs.consumers import RunConsumer
from research.workspaces.consumers import WorkspaceConsumer

websocket_urlpatterns = [
    path("ws/w/<slug:slug>/", WorkspaceConsumer.as_asgi()),
    path("ws/runs/<int:run_id>/", RunConsumer.as_asgi()),
]
