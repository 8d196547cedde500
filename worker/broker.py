"""The worker's Redis broker channel: kombu's, closed cleanly when Redis went away under a waiting BRPOP.

When the connection to Redis breaks (Redis restarted, or unreachable) while the worker waits for a message and
holds an unacknowledged one (every run and ingest task is ``acks_late``), Celery tears the connection down twice:
``Connection.collect()``, then ``Connection.close()``. kombu's ``Channel.close`` first reads the reply of the
pending BRPOP; with the connection gone that read raises a connection error, the first close stops there (the
channel stays open), and ``collect()`` then drops the transport's client. The second close goes on to restore
the unacknowledged messages through a client it can no longer build (``AttributeError: 'NoneType' object has no
attribute 'hostname'``), which Celery takes for an unrecoverable error: the worker shuts down once its running
tasks end, with exit code 0, so nothing restarts it. Measured with kombu 5.7.0 and Celery 5.7.0
(tests/integration/test_redis_restart.py).

``Channel`` treats a connection error on that read as the empty reply it is (the reply went with the
connection), so the first close completes and restores what it can; the consumer then reconnects as Celery
intends. Nothing else changes: a BRPOP read that fails while polling still raises, which is how the consumer
notices the lost connection.
"""

from __future__ import annotations

from queue import Empty
from typing import Any

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    def close(self) -> None:
        channel: Any = self  # kombu's type stubs leave out the polling state
        if channel._in_poll:
            try:
                channel._brpop_read()  # leaves _in_poll unset, so kombu's close does not read again
            except (Empty, *channel.connection_errors):
                pass
        super().close()


def install() -> None:
    """Use ``Channel`` for every Redis connection this process opens (call before the worker starts)."""
    kombu_redis.Transport.Channel = Channel
