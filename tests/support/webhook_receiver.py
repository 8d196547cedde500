"""A webhook receiver in a thread: records each POST's headers and raw body, and answers the statuses it is given
(the last one again once they run out)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    port: int
    statuses: list[int] = field(default_factory=lambda: [200])
    received: list[Received] = field(default_factory=list)


@contextmanager
def webhook_receiver(statuses: list[int] | None = None) -> Iterator[Receiver]:
    receiver = Receiver(url="", port=0, statuses=list(statuses or [200]))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            receiver.received.append(Received(dict(self.headers.items()), body))
            status = receiver.statuses.pop(0) if len(receiver.statuses) > 1 else receiver.statuses[0]
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    receiver.port = int(server.server_address[1])
    receiver.url = f"http://127.0.0.1:{receiver.port}/hooks/context1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
