"""The workspace socket, through the real ASGI application (origin check, session auth, Redis layer)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from context1_web.asgi import application
from research.platform.realtime import workspace_group

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def _close_thread_connections() -> AsyncIterator[None]:
    """Consumers query from asgiref's shared thread; close its connection so the test database can be dropped."""
    yield
    await sync_to_async(connections.close_all)()


def _headers(client: Client | None, origin: str = "http://127.0.0.1") -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", origin.encode()), (b"host", b"127.0.0.1")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


async def _connect(path: str, headers: list[tuple[bytes, bytes]]) -> tuple[WebsocketCommunicator, bool, Any]:
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


async def test_a_member_receives_the_workspace_group_messages(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada = await sync_to_async(make_user)()
    workspace = await sync_to_async(make_workspace)(ada)
    client = await sync_to_async(login)(ada)
    communicator, connected, _ = await _connect(f"/ws/w/{workspace.slug}/", _headers(client))
    assert connected
    token = uuid.uuid4().hex
    await get_channel_layer().group_send(
        workspace_group(workspace.pk),
        {"type": "group.message", "payload": {"type": "ping", "token": token, "worker": "w1"}},
    )
    fragment = await communicator.receive_from(timeout=5)
    assert 'hx-swap-oob="afterbegin"' in fragment
    assert token in fragment
    await communicator.disconnect()


async def test_a_non_member_is_refused(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, eve = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    workspace = await sync_to_async(make_workspace)(ada)
    client = await sync_to_async(login)(eve)
    communicator, connected, code = await _connect(f"/ws/w/{workspace.slug}/", _headers(client))
    assert not connected
    assert code == 4403
    await communicator.disconnect()


async def test_an_anonymous_socket_is_refused(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    workspace = await sync_to_async(make_workspace)(await sync_to_async(make_user)())
    _, connected, code = await _connect(f"/ws/w/{workspace.slug}/", _headers(None))
    assert not connected
    assert code == 4403


async def test_a_foreign_origin_is_refused_even_for_a_member(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada = await sync_to_async(make_user)()
    workspace = await sync_to_async(make_workspace)(ada)
    client = await sync_to_async(login)(ada)
    _, connected, _ = await _connect(f"/ws/w/{workspace.slug}/", _headers(client, "http://evil.example"))
    assert not connected
