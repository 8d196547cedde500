"""Probe item 8: the WebSocket origin check compared the host alone, so a page on another port of the same host
could open a signed-in user's sockets. The check now compares scheme, host and port with the site's own origin (as
Django's CSRF check does for the page's forms)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from context1_web.asgi import application
from context1_web.origins import same_origin

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def _close_thread_connections() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


async def _opens(client, slug: str, origin: str, host: str = "127.0.0.1:8000") -> bool:  # type: ignore[no-untyped-def]
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    headers = [(b"origin", origin.encode()), (b"host", host.encode()), (b"cookie", cookie)]
    communicator = WebsocketCommunicator(application, f"/ws/w/{slug}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    await communicator.disconnect()
    return bool(connected)


async def test_a_page_on_another_port_of_the_same_host_cannot_open_a_members_socket(
    make_user, make_workspace, login
) -> None:  # type: ignore[no-untyped-def]
    ada = await sync_to_async(make_user)()
    workspace = await sync_to_async(make_workspace)(ada)
    client = await sync_to_async(login)(ada)
    assert await _opens(client, workspace.slug, "http://127.0.0.1:8000")
    assert not await _opens(client, workspace.slug, "http://127.0.0.1:9999")
    assert not await _opens(client, workspace.slug, "http://127.0.0.1")  # port 80 is another origin
    assert not await _opens(client, workspace.slug, "https://127.0.0.1:8000")  # another scheme
    assert await _opens(client, workspace.slug, "http://localhost", host="localhost:80")  # the default port


def _scope(origin: str, host: str, **extra: object) -> dict[str, object]:
    headers = [(b"origin", origin.encode()), (b"host", host.encode())]
    headers += [(name.encode(), str(value).encode()) for name, value in extra.items()]
    return {"type": "websocket", "scheme": "ws", "headers": headers}


def test_behind_a_tls_proxy_the_scheme_is_the_proxys_and_trusted_origins_pass(settings) -> None:  # type: ignore[no-untyped-def]
    settings.ALLOWED_HOSTS = ["research.example"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.CSRF_TRUSTED_ORIGINS = ["https://intranet.example:8443"]
    proxied = {"x-forwarded-proto": "https"}
    assert same_origin(_scope("https://research.example", "research.example", **proxied))
    assert not same_origin(_scope("http://research.example", "research.example", **proxied))
    assert not same_origin(_scope("https://research.example", "research.example"))  # the proxy did not say TLS
    assert same_origin(_scope("https://intranet.example:8443", "research.example"))
    assert not same_origin(_scope("https://intranet.example", "research.example"))
    assert not same_origin(_scope("https://evil.example", "evil.example", **proxied))  # a host not allowed
    assert not same_origin(_scope("null", "research.example", **proxied))
