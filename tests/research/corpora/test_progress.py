"""Ingestion progress: a "Live activity" line per step worth telling, pushed through the real Redis channel layer;
an unreachable channel layer is said once and costs nothing after."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import User

from research.corpora import progress, services
from research.models import Membership, Stage, UploadFile
from research.platform.realtime import workspace_group
from tests.support.processes import free_port


@pytest.fixture
def item(make_user: Callable[..., User], make_workspace: Callable[..., Any]) -> UploadFile:
    owner = Membership.objects.select_related("workspace").get(workspace=make_workspace(make_user()))
    corpus = services.corpus_create(actor=owner, name="Competitors")
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile("globex.txt", [b"Globex."])], enqueue=False
    )
    return UploadFile.objects.select_related("upload__corpus__workspace").get(upload=upload)


@pytest.fixture
def fresh_channel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "_channel", progress._Channel())


def test_a_line_targets_the_notices_list_that_every_workspace_socket_page_has(item: UploadFile) -> None:
    item.stage, item.chunks_added = Stage.CHUNKED, 1463
    html = progress.activity_html(item)
    assert html.startswith('<ul id="notices" hx-swap-oob="afterbegin"><li data-type="ingest">')
    corpus = item.upload.corpus
    assert f'<a href="/w/{corpus.workspace.slug}/c/{corpus.slug}/">Competitors</a>' in html
    assert "about 1,463 chunks to embed, ~7 min" in html
    assert 'id="file-' not in html  # no row of a corpus page: a page without it would log htmx:oobErrorNoTarget
    item.stage, item.error = Stage.FAILED, "the file is empty"
    assert '<span class="error">the file is empty</span>' in progress.activity_html(item)


def test_it_pushes_a_line_for_the_stages_worth_telling(item: UploadFile, fresh_channel: None) -> None:
    group = workspace_group(item.upload.corpus.workspace_id)

    def push() -> None:
        for stage in (Stage.STORED, Stage.PARSED, Stage.INDEXED):
            item.stage = stage
            progress.file_changed(item)

    async def listen() -> list[dict[str, Any]]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        try:
            await sync_to_async(push)()
            return [await asyncio.wait_for(layer.receive(channel), timeout=10) for _ in range(2)]
        finally:
            await layer.group_discard(group, channel)

    received = asyncio.run(listen())
    badges = [message["payload"]["html"].split('data-stage="')[1].split('"')[0] for message in received]
    assert badges == ["stored", "indexed"]  # parsed is left to the corpus page's poll


def test_an_unreachable_channel_layer_is_said_once_without_a_traceback(
    item: UploadFile, fresh_channel: None, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},
        }
    }
    caplog.set_level(logging.DEBUG, logger="research.corpora.progress")
    for stage in (Stage.STORED, Stage.CHUNKED, Stage.INDEXED):
        item.stage = stage
        progress.file_changed(item)
    progress._channel.quiet_until = 0.0  # the quiet spell is over: it tries again, and says so only at debug level
    progress.file_changed(item)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    assert warnings[0].getMessage().startswith("live progress is off: cannot reach the channel layer (ConnectionError")
    assert all(record.exc_info is None for record in caplog.records)
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert debug == [debug[0]]
    assert debug[0].startswith("live progress push failed again: ")
