"""Channel-layer groups and publishing: the only way server code pushes messages to browsers."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer


def workspace_group(workspace_id: int) -> str:
    return f"workspace.{workspace_id}"


def run_group(run_id: int) -> str:
    return f"run.{run_id}"


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    return layer


def publish(group: str, payload: dict[str, Any]) -> None:
    """Send ``payload`` to every socket in ``group`` (at most once: the database stays the source of truth)."""
    async_to_sync(_layer().group_send)(group, {"type": "group.message", "payload": payload})


class Publisher:
    """Publishes from one long-lived thread through its own event loop, so the layer's Redis connections
    are reused between messages (``publish`` starts a fresh loop, and connections, on every call)."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._layer = _layer()

    def publish_many(self, group: str, payloads: Sequence[dict[str, Any]]) -> None:
        """Send ``payloads`` to ``group`` in order."""
        self._loop.run_until_complete(self._send(group, payloads))

    async def _send(self, group: str, payloads: Sequence[dict[str, Any]]) -> None:
        for payload in payloads:
            await self._layer.group_send(group, {"type": "group.message", "payload": payload})

    def close(self) -> None:
        self._loop.close()
