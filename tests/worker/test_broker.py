"""The worker's Redis channel: a pending BRPOP read that lost its connection does not stop the channel's close
(tests/integration/test_redis_restart.py restarts a real Redis under a real worker)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from kombu.transport import redis as kombu_redis

from worker import broker


@pytest.fixture
def kombu_closes(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The channels kombu's own close was called for (it does nothing else here)."""
    closes: list[object] = []

    def close(self: object) -> None:
        closes.append(self)

    monkeypatch.setattr(kombu_redis.Channel, "close", close)
    return closes


def _polling_channel(error: Exception) -> broker.Channel:
    """A channel waiting on BRPOP, whose read fails with ``error``."""
    channel = broker.Channel.__new__(broker.Channel)
    raw: Any = channel  # kombu's type stubs leave out the polling state
    raw._in_poll = True
    raw.connection_errors = kombu_redis.get_redis_error_classes().connection_errors

    def read() -> None:
        raw._in_poll = None  # as kombu's read does, whatever happens
        raise error

    raw._brpop_read = read
    return channel


def test_it_closes_when_the_pending_read_lost_its_connection(kombu_closes: list[object]) -> None:
    channel = _polling_channel(redis.ConnectionError("Connection closed by server."))
    channel.close()
    assert kombu_closes == [channel]


def test_it_still_raises_what_is_not_a_lost_connection(kombu_closes: list[object]) -> None:
    channel = _polling_channel(ValueError("a bug"))
    with pytest.raises(ValueError, match="a bug"):
        channel.close()
    assert kombu_closes == []


def test_install_makes_every_redis_connection_use_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kombu_redis.Transport, "Channel", kombu_redis.Channel)  # restored after the test
    broker.install()
    assert kombu_redis.Transport.Channel is broker.Channel
