"""The run journal's publishing when no channel layer answers (`manage.py report` outside `make run`, issue 34):
it says once, in one line without a traceback, that live progress is off, then stays quiet; the run is stored
and the report written."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from research.models import Membership, Run, RunStatus
from research.runs import sink
from tests.research.reporting.test_competitor_runs import MARKET
from tests.research.runs.conftest import ingest
from tests.support.processes import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_report_without_a_channel_layer_says_once_that_live_progress_is_off(
    owner: Membership, tmp_path: Path, settings: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest(owner, "Competitors", MARKET)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},  # nothing listens there
        }
    }
    monkeypatch.setattr(sink, "_writer", None)  # a writer of its own, publishing through that layer
    caplog.set_level(logging.DEBUG, logger="research")
    target = tmp_path / "report.json"
    call_command(
        "report", "competitor", company="Halvorix", workspace=owner.workspace.slug, corpus=["competitors"], json=target
    )
    assert Run.objects.get(pk=json.loads(target.read_text())["run"]).status == RunStatus.FINISHED
    warnings = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert [record.getMessage().split(" (")[0] for record in warnings] == [
        "live progress is off: cannot reach the channel layer"
    ]
    assert warnings[0].getMessage().startswith("live progress is off: cannot reach the channel layer (ConnectionError")
    assert all(record.exc_info is None for record in caplog.records)
