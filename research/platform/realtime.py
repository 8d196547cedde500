"""Channel-layer groups and publishing: the only way server code pushes messages to browsers."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer

# Close code in the private range for a socket the user may not (or may no longer) read: pages say why it stopped.
CLOSE_FORBIDDEN = 4403


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


def run_events_message(messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One channel-layer message carrying a batch of a run's events (in seq order): one Redis hop per batch,
    so a backlog is cleared in a few hops rather than one per event."""
    return {"type": "run.events", "events": list(messages)}


def publish_run_events(run_id: int, messages: Sequence[dict[str, Any]]) -> None:
    """Send a batch of a run's stored events to the sockets watching it (at most once; see RunConsumer)."""
    async_to_sync(_layer().group_send)(run_group(run_id), run_events_message(messages))


class Publisher:
    """Publishes run event batches from one long-lived thread through its own event loop, so the layer's
    Redis connections are reused between rounds (``async_to_sync`` starts a fresh loop on every call)."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._layer = _layer()

    def run_events_many(self, batches: Sequence[tuple[int, Sequence[dict[str, Any]]]]) -> None:
        """Send each run's batch (one message per run, the runs concurrently)."""
        self._loop.run_until_complete(self._send_all(batches))

    async def _send_all(self, batches: Sequence[tuple[int, Sequence[dict[str, Any]]]]) -> None:
        sends = (self._layer.group_send(run_group(run_id), run_events_message(m)) for run_id, m in batches)
        await asyncio.gather(*sends)

    def close(self) -> None:
        self._loop.close()


def user_group(user_id: int) -> str:
    """Every socket a user has open, whatever it watches: where access revocations go."""
    return f"user.{user_id}"


def publish_access_revoked(user_id: int, session_tag: str) -> None:
    """Tell the user's open sockets to re-check their access (``session_tag`` non-empty: that session ended)."""
    async_to_sync(_layer().group_send)(user_group(user_id), {"type": "access.revoked", "session": session_tag})
