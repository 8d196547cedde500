"""The workspace socket, through the real ASGI application (origin check, session auth, Redis layer), and
its access ending while it is open: a removed member, a logout, a row deleted behind the product's back."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection, connections
from django.test import Client

from context1_web.asgi import application
from research.models import Membership
from research.platform.realtime import CLOSE_FORBIDDEN, workspace_group
from research.workspaces.consumers import WorkspaceConsumer
from research.workspaces.services import membership_remove

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


async def _publish(workspace_id: int, token: str) -> None:
    await get_channel_layer().group_send(
        workspace_group(workspace_id), {"type": "group.message", "payload": {"type": "ping", "token": token}}
    )


async def _closed_with(communicator: WebsocketCommunicator) -> Any:
    """The close frame the socket sends next (skipping nothing: a fragment first fails the test)."""
    output = await communicator.receive_output(timeout=5)
    assert output["type"] == "websocket.close", output
    return output.get("code")


@sync_to_async
def _member_and_owner(make_user, make_workspace, login):  # type: ignore[no-untyped-def]
    ada, bob = make_user(), make_user()
    workspace = make_workspace(ada, members={bob: "viewer"})
    owner = Membership.objects.select_related("workspace").get(workspace=workspace, user=ada)
    return workspace, owner, Membership.objects.get(workspace=workspace, user=bob), login(bob)


async def test_a_removed_member_is_closed_with_4403_and_gets_nothing_more(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    workspace, owner, bob, bobs_client = await _member_and_owner(make_user, make_workspace, login)
    communicator, connected, _ = await _connect(f"/ws/w/{workspace.slug}/", _headers(bobs_client))
    assert connected
    await _publish(workspace.pk, "before")
    assert "before" in await communicator.receive_from(timeout=5)
    await sync_to_async(membership_remove)(actor=owner, member=bob)
    assert await _closed_with(communicator) == CLOSE_FORBIDDEN
    await _publish(workspace.pk, "after")
    assert await communicator.receive_nothing(timeout=0.5)


async def test_logging_out_closes_that_sessions_sockets_only(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    workspace, _, bob, laptop = await _member_and_owner(make_user, make_workspace, login)
    phone = await sync_to_async(login)(await sync_to_async(lambda: bob.user)())
    on_laptop, connected, _ = await _connect(f"/ws/w/{workspace.slug}/", _headers(laptop))
    on_phone, also_connected, _ = await _connect(f"/ws/w/{workspace.slug}/", _headers(phone))
    assert connected
    assert also_connected
    await sync_to_async(laptop.logout)()
    assert await _closed_with(on_laptop) == CLOSE_FORBIDDEN
    await _publish(workspace.pk, "still-here")
    assert "still-here" in await on_phone.receive_from(timeout=5)  # the phone's session is still logged in
    await on_phone.disconnect()


async def test_access_removed_behind_the_products_back_stops_at_the_next_send(  # type: ignore[no-untyped-def]
    make_user, make_workspace, login, monkeypatch
) -> None:
    monkeypatch.setattr(WorkspaceConsumer, "access_check_seconds", 0.0)  # the bound, shrunk for the test
    workspace, _, bob, bobs_client = await _member_and_owner(make_user, make_workspace, login)
    communicator, connected, _ = await _connect(f"/ws/w/{workspace.slug}/", _headers(bobs_client))
    assert connected

    @sync_to_async
    def delete_with_sql() -> None:  # no ORM signal, no revocation message
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {Membership._meta.db_table} WHERE id = %s", [bob.pk])

    await delete_with_sql()
    await _publish(workspace.pk, "secret-file-name")
    assert await _closed_with(communicator) == CLOSE_FORBIDDEN
