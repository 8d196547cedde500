"""The test suite's network guard: sockets of this process connect to loopback only (and unix sockets), so no
test reaches the internet or the machine's network, whatever the code under test asks for."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

_original_connect = socket.socket.connect
_original_connect_ex = socket.socket.connect_ex


class NetworkForbidden(ConnectionRefusedError):
    """A test tried to connect beyond loopback."""


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return all(ipaddress.ip_address(info[4][0]).is_loopback for info in socket.getaddrinfo(host, None))


def _check(sock: socket.socket, address: Any) -> None:
    if sock.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(str(address[0])):
        raise NetworkForbidden(f"tests may connect to loopback only, not {address[0]}:{address[1]}")


def _connect(self: socket.socket, address: Any) -> None:
    _check(self, address)
    _original_connect(self, address)


def _connect_ex(self: socket.socket, address: Any) -> int:
    _check(self, address)
    return _original_connect_ex(self, address)


def install() -> None:
    socket.socket.connect = _connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _connect_ex  # type: ignore[method-assign]
