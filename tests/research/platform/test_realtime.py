"""LiveProgress: a push that fails is said once in one line, then quietly; a push that gets through ends it."""

from __future__ import annotations

import logging

import pytest

from research.platform.realtime import LiveProgress

logger = logging.getLogger("tests.live")


def _fail() -> None:
    raise ConnectionError("nobody listens")


def test_an_outage_is_said_once_then_its_end_then_a_later_one_again(caplog: pytest.LogCaptureFixture) -> None:
    live = LiveProgress(goes_on="the work goes on", logger=logger, quiet_s=0.0)
    sent: list[int] = []
    with caplog.at_level(logging.DEBUG, logger="tests.live"):
        live.push(_fail)
        live.push(_fail)
        live.push(lambda: sent.append(1))
        live.push(_fail)
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "WARNING",
            "live progress is off: cannot reach the channel layer (ConnectionError: nobody listens); the work goes on",
        ),
        ("DEBUG", "live progress push failed again: nobody listens"),
        ("INFO", "live progress is back: the channel layer answers again"),
        (
            "WARNING",
            "live progress is off: cannot reach the channel layer (ConnectionError: nobody listens); the work goes on",
        ),
    ]
    assert sent == [1]
    assert all(record.exc_info is None for record in caplog.records)


def test_a_quiet_spell_skips_pushes() -> None:
    live = LiveProgress(goes_on="the work goes on", logger=logger, quiet_s=3600.0)
    sent: list[int] = []
    live.push(_fail)
    live.push(lambda: sent.append(1))
    assert sent == []


def test_a_fault_of_ours_is_logged_with_its_traceback_not_called_an_outage(caplog: pytest.LogCaptureFixture) -> None:
    live = LiveProgress(goes_on="the work goes on", logger=logger, quiet_s=3600.0)
    sent: list[int] = []

    def broken() -> None:
        raise TypeError("Object of type set is not JSON serializable")

    with caplog.at_level(logging.DEBUG, logger="tests.live"):
        live.push(broken)
        live.push(lambda: sent.append(1))  # no quiet spell: the layer was never away
    assert sent == [1]
    [record] = caplog.records
    assert record.levelname == "ERROR"
    assert record.exc_info is not None
    assert "cannot reach" not in record.getMessage()
