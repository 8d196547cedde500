"""WebSocket routes."""

from __future__ import annotations

from django.urls import path

from research import consumers

websocket_urlpatterns = [
    path("ws/w/<slug:slug>/", consumers.WorkspaceConsumer.as_asgi()),
    path("ws/runs/<int:run_id>/", consumers.RunConsumer.as_asgi()),
]
