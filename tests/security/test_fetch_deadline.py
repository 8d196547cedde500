"""Probe item 4: the whole-fetch deadline was checked only between body chunks, so a server that sends one header
line every few seconds (each read within the read timeout) kept a fetch, and the worker running it, alive long past
the deadline. The deadline now ends the whole exchange (connect, headers, body) by shutting its socket down."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from research.retrieval.web import WebError
from research.retrieval.web.fetching import Fetcher, FetchSettings
from research.retrieval.web.guard import AllowList

LINES = 40  # header lines the slow server sends (one every INTERVAL seconds) before it ends its headers
INTERVAL = 0.25


@dataclass
class SlowServer:
    port: int
    sent: list[int] = field(default_factory=list)  # header lines sent to each connection before it was cut


def _dribble(connection: socket.socket, server: SlowServer) -> None:
    sent = 0
    try:
        connection.recv(4096)
        connection.sendall(b"HTTP/1.1 200 OK\r\n")
        for number in range(LINES):
            connection.sendall(f"X-Slow-{number}: still here\r\n".encode())
            sent += 1
            time.sleep(INTERVAL)
        connection.sendall(b"Content-Type: text/html\r\nContent-Length: 19\r\n\r\n<p>finally here</p>")
    except OSError:
        pass  # the client cut the exchange
    finally:
        server.sent.append(sent)
        connection.close()


@pytest.fixture
def slow_server() -> Iterator[SlowServer]:
    listener = socket.create_server(("127.0.0.1", 0))
    server = SlowServer(listener.getsockname()[1])

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=_dribble, args=(connection, server), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    yield server
    listener.close()


def test_a_server_that_dribbles_its_headers_is_cut_at_the_deadline(slow_server: SlowServer) -> None:
    settings = FetchSettings(
        allow=AllowList.of([f"127.0.0.1:{slow_server.port}"]), timeout=1.0, deadline=2.0, min_interval=0.0, robots=False
    )
    with pytest.raises(WebError, match="the fetch took longer than 2 s"):
        Fetcher(settings).fetch(f"http://127.0.0.1:{slow_server.port}/page.html")
    for _ in range(50):  # the server's thread notices the cut connection at its next write
        if slow_server.sent:
            break
        time.sleep(0.1)
    assert slow_server.sent
    assert slow_server.sent[0] < LINES  # cut before the server finished its headers
