"""The workspace page's "Live activity" over random sequences of ingest progress, through the real path.

The workspace page folds no state: each stage change worth telling is one line (research/corpora/progress.py
``file_changed``), pushed through the Redis channel layer to the workspace's sockets
(research/workspaces/consumers.py ``group_message`` forwards it as it is) and swapped by htmx *afterbegin* into
the page's ``#notices`` list (templates/research/partials/notice.html). So what the page promises is a log, not a
fold: every told change appears once, newest first, a repeated change appears again, a file's failure does not
replace its earlier lines, and the order is the order of the changes. The property below checks that promise
over random sequences of changes to files of two workspaces, with a member's socket open on each workspace's
page: each page shows exactly its own workspace's told changes, newest first, above the lines of its files under
way when it opened, and nothing of the other's.
"""

from __future__ import annotations

import asyncio
import copy
import uuid
from collections.abc import Callable
from typing import Any

import lxml.html
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from context1_web.asgi import application
from research.corpora import progress
from research.corpora.estimate import LARGE_FILE_CHUNKS
from research.models import Corpus, Stage, Upload, UploadFile, Workspace
from research.platform.realtime import publish, workspace_group

# The stages a line is told for (a chunked file only when large: its embedding will take a while).
TOLD = {Stage.STORED, Stage.SEARCHABLE, Stage.INDEXED, Stage.EXPANDED, Stage.FAILED}
CHANGES = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from(list(Stage)), st.sampled_from([1, LARGE_FILE_CHUNKS])), max_size=10
)
SETTINGS = hypothesis_settings(max_examples=25, deadline=None)


def told(stage: Stage, chunks: int) -> bool:
    return stage in TOLD or (stage == Stage.CHUNKED and chunks >= LARGE_FILE_CHUNKS)


def apply_oob(page: lxml.html.HtmlElement, fragment: str) -> None:
    """Swap a frame into ``page`` as htmx's ws extension does: each top-level element by its hx-swap-oob."""
    for element in lxml.html.fragments_fromstring(fragment):
        assert element.attrib.pop("hx-swap-oob") == "afterbegin", fragment
        target = page.get_element_by_id(element.get("id"))
        for child in reversed(list(element)):
            target.insert(0, child)


def lines(page: lxml.html.HtmlElement) -> list[tuple[str, str, str]]:
    """The page's activity lines, top first: (corpus link, file, stage)."""
    return [
        (li.find("a").get("href"), li.find_class("file-name")[0].text, li.find_class("stage")[0].get("data-stage"))
        for li in page.get_element_by_id("notices")
        if "placeholder" not in li.get("class", "")
    ]


async def _socket(client: Client, workspace: Workspace) -> WebsocketCommunicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie)]
    communicator = WebsocketCommunicator(application, f"/ws/w/{workspace.slug}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def _frames_until(communicator: WebsocketCommunicator, token: str) -> list[str]:
    """What the socket sent, up to the end marker pushed after the changes (the layer keeps a group's order)."""
    frames = []
    while token not in (frame := await communicator.receive_from(timeout=5)):
        frames.append(frame)
    return frames


@pytest.mark.django_db(transaction=True)
def test_each_workspace_page_logs_its_own_told_changes_newest_first(  # type: ignore[no-untyped-def]
    make_user: Callable[..., Any], make_workspace: Callable[..., Workspace], login: Callable[..., Client], monkeypatch
) -> None:
    monkeypatch.setattr(progress, "_channel", progress._Channel())
    ada, eve = make_user(), make_user()
    workspaces = [make_workspace(ada), make_workspace(eve)]
    clients = [login(ada), login(eve)]
    files = []
    for workspace in workspaces:
        upload = Upload.objects.create(corpus=Corpus.objects.create(workspace=workspace, name="Market", slug="market"))
        files += [UploadFile.objects.create(upload=upload, name=f"{workspace.slug}-{n}.txt") for n in range(2)]
    files = list(UploadFile.objects.select_related("upload__corpus__workspace").order_by("id"))
    pages = []
    for client, workspace in zip(clients, workspaces, strict=True):
        response = client.get(f"/w/{workspace.slug}/")
        assert response.status_code == 200
        pages.append(lxml.html.fromstring(response.content))
    opened = [  # each page opens on its own files under way (all queued), latest first
        [(f"/w/{w.slug}/c/market/", f.name, "queued") for f in reversed(files) if f.upload.corpus.workspace_id == w.pk]
        for w in workspaces
    ]
    assert [lines(page) for page in pages] == opened

    loop = asyncio.new_event_loop()
    sockets = [loop.run_until_complete(_socket(c, w)) for c, w in zip(clients, workspaces, strict=True)]

    @SETTINGS
    @given(changes=CHANGES)
    def each_page_shows_its_own_log(changes: list[tuple[int, Stage, int]]) -> None:
        for index, stage, chunks in changes:
            item = files[index]
            item.stage, item.chunks_added = stage, chunks
            progress.file_changed(item)
        token = uuid.uuid4().hex
        for workspace in workspaces:
            publish(workspace_group(workspace.pk), {"type": "ping", "token": token, "worker": "end"})
        for socket, workspace, page, before in zip(sockets, workspaces, pages, opened, strict=True):
            shown = copy.deepcopy(page)
            for frame in loop.run_until_complete(_frames_until(socket, token)):
                apply_oob(shown, frame)
            expected = [
                (f"/w/{workspace.slug}/c/market/", files[index].name, str(stage))
                for index, stage, chunks in reversed(changes)
                if files[index].upload.corpus.workspace_id == workspace.pk and told(stage, chunks)
            ] + before
            assert lines(shown) == expected, f"the page of {workspace.slug}"

    try:
        each_page_shows_its_own_log()
    finally:
        for socket in sockets:
            loop.run_until_complete(socket.disconnect())
        loop.run_until_complete(sync_to_async(connections.close_all)())
        loop.close()
