"""A small real HTTP server in a thread, answering with handler functions given by the test."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Route = Callable[..., tuple[int, Any]]


@contextmanager
def serve(routes: dict[str, Route]) -> Iterator[str]:
    """Serve ``routes`` on a free loopback port; yields the base URL.

    A route maps a path to a function returning (status, JSON body); for POST it receives the parsed
    JSON request body as its one argument.
    """

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            route = routes.get(self.path)
            self._reply(*(route() if route else (404, {"error": "not found"})))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(length) or b"null")
            route = routes.get(self.path)
            self._reply(*(route(request) if route else (404, {"error": "not found"})))

        def _reply(self, status: int, body: Any) -> None:
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
