"""The suite's network guard: nothing connects beyond loopback, whatever the code asks for."""

from __future__ import annotations

import socket

import pytest

from tests.support.network import NetworkForbidden


def test_a_connection_beyond_loopback_is_refused_before_it_leaves() -> None:
    for address in (("10.255.255.1", 80), ("93.184.216.34", 443)):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(NetworkForbidden):
            sock.connect(address)
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock, pytest.raises(NetworkForbidden):
        sock.connect_ex(("2606:2800:220:1::1", 80, 0, 0))


def test_loopback_still_connects() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
