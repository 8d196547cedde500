"""A loopback TCP proxy that a test can cut and restore: a network outage between a process and a server that the
rest of the suite shares (PostgreSQL), without stopping the server.

``cut()`` resets every open connection (both ends: the client sees its connection break, the server sees its
client go and rolls back what it had open) and resets each new one as soon as it is accepted, as a server that is
down would; ``restore()`` lets new connections through again. Connections cut stay cut: clients must reconnect.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager

CHUNK = 65_536


def _reset(sock: socket.socket) -> None:
    """Close with an RST, not a FIN: to the other end the connection breaks, as when a host goes away."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.close()


class TcpProxy:
    """Forwards connections to ``127.0.0.1:<listen port>`` to ``upstream``, one thread per connection."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._open: set[tuple[socket.socket, socket.socket]] = set()
        self._down = False
        self._closed = False
        self.accepted = 0  # connections forwarded
        self.refused = 0  # connections reset on arrival while cut
        self._thread = threading.Thread(target=self._accept, name=f"tcp-proxy-{self.port}", daemon=True)
        self._thread.start()

    @property
    def open_connections(self) -> int:
        with self._lock:
            return len(self._open)

    def cut(self) -> None:
        """Reset every open connection, and every new one until ``restore``."""
        with self._lock:
            self._down = True
            pairs, self._open = self._open, set()
        for client, server in pairs:
            _reset(client)
            _reset(server)

    def restore(self) -> None:
        with self._lock:
            self._down = False

    def close(self) -> None:
        self._closed = True
        self.cut()
        with contextlib.suppress(OSError):
            self._listener.close()
        self._thread.join(timeout=5)

    def _accept(self) -> None:
        self._listener.settimeout(0.2)  # so that ``close`` is noticed
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                down = self._down
            if down:
                self.refused += 1
                _reset(client)
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                _reset(client)
                continue
            self.accepted += 1
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        pair = (client, server)
        with self._lock:
            if self._down:  # cut between the accept and here
                _reset(client)
                _reset(server)
                return
            self._open.add(pair)
        other = {client: server, server: client}
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(client, selectors.EVENT_READ)
                selector.register(server, selectors.EVENT_READ)
                while True:
                    ready = selector.select(timeout=0.2)
                    with self._lock:
                        if pair not in self._open:  # cut: both ends are reset already
                            return
                    for key, _ in ready:
                        data = key.fileobj.recv(CHUNK)  # type: ignore[union-attr]
                        if not data:
                            return
                        other[key.fileobj].sendall(data)  # type: ignore[index]
        except (OSError, ValueError):  # reset by ``cut`` (a closed socket), or by either end
            return
        finally:
            with self._lock:
                cut = pair not in self._open
                self._open.discard(pair)
            if not cut:  # an end closed: close the other one the ordinary way
                client.close()
                server.close()


@contextmanager
def tcp_proxy(upstream: tuple[str, int]) -> Iterator[TcpProxy]:
    """A ``TcpProxy`` to ``upstream``, closed (every connection reset) on the way out."""
    proxy = TcpProxy(upstream)
    try:
        yield proxy
    finally:
        proxy.close()
