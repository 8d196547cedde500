"""Channel-layer groups and publishing: the only way server code pushes messages to browsers."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def workspace_group(workspace_id: int) -> str:
    return f"workspace.{workspace_id}"


def publish(group: str, payload: dict[str, Any]) -> None:
    """Send ``payload`` to every socket in ``group`` (at most once: the database stays the source of truth)."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    async_to_sync(layer.group_send)(group, {"type": "group.message", "payload": payload})
