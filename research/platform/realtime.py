"""Channel-layer groups and publishing: the only way server code pushes messages to browsers."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer, get_channel_layer
from redis.exceptions import RedisError

# Close code in the private range for a socket the user may not (or may no longer) read: pages say why it stopped.
CLOSE_FORBIDDEN = 4403
QUIET_AFTER_FAILURE_S = 30.0  # after a failed push, skip pushes this long (an unreachable Redis costs nothing)


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


# What a channel layer that cannot be reached raises: the connection's errors (redis-py's derive from RedisError),
# a timeout, a full channel.
UNREACHABLE: tuple[type[BaseException], ...] = (OSError, RedisError, TimeoutError, asyncio.TimeoutError, ChannelFull)


@dataclass
class LiveProgress:
    """Pushes that may fail without harm, since the database stays the truth: a process with no channel layer to
    reach (`manage.py ingest` or `report` outside `make run`, a Redis away) says so once, in one warning line without
    a traceback naming what ``goes_on``, then only at debug level; after each failure it skips pushes for
    ``quiet_s``. A push that gets through again ends the outage (a later one is said again)."""

    goes_on: str  # what still happens without live progress, said in the warning
    logger: logging.Logger
    quiet_s: float = QUIET_AFTER_FAILURE_S
    warned: bool = False
    quiet_until: float = 0.0

    def push(self, send: Callable[[], None]) -> None:
        """Call ``send`` (a publish) unless in a quiet spell; a failure is said as above, never raised."""
        if time.monotonic() < self.quiet_until:
            return
        try:
            send()
        except UNREACHABLE as error:  # the layer is away: live progress is only a view
            self.quiet_until = time.monotonic() + self.quiet_s
            if self.warned:
                self.logger.debug("live progress push failed again: %s", error)
                return
            self.warned = True
            self.logger.warning(
                "live progress is off: cannot reach the channel layer (%s: %s); %s",
                type(error).__name__,
                error,
                self.goes_on,
            )
        except Exception:  # a fault of ours (a payload that cannot be sent): said with its traceback, never raised
            self.logger.exception("a live progress push failed; %s", self.goes_on)
        else:
            if self.warned:
                self.logger.info("live progress is back: the channel layer answers again")
            self.warned = False


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
