"""Opening Chroma: an embedded PersistentClient in a folder, or an HttpClient for a Chroma server."""

from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import urlsplit

import chromadb
import httpx
from chromadb.api import ClientAPI
from chromadb.config import Settings

# A Chroma server that cannot be reached (restarting, a network cut): chromadb's HttpClient raises httpx's transport
# errors as they come. Transient: the work is tried again later, never failed for it (research/corpora/tasks.py).
STORE_UNAVAILABLE: tuple[type[Exception], ...] = (httpx.TransportError,)


def _settings() -> Settings:
    """Fresh settings per client: chromadb's HttpClient writes its server into the Settings it is given, so a shared
    object turned every later PersistentClient of the process into a client of that server."""
    return Settings(anonymized_telemetry=False, allow_reset=False)


# chromadb shares one system per folder between its clients and registers it before starting it: a second thread
# that opens the folder meanwhile got a system not started yet (the health check's heartbeat failed at start-up, with
# the demo seeding opening the same folder). One opening at a time.
_OPENING = threading.Lock()


def open_client(*, url: str | None, path: Path) -> ClientAPI:
    """A client for ``url`` when given, else a PersistentClient stored under ``path``."""
    if url is None:
        path.mkdir(parents=True, exist_ok=True)
        with _OPENING:
            return chromadb.PersistentClient(path=str(path), settings=_settings())
    parts = urlsplit(url)
    ssl = parts.scheme == "https"
    port = parts.port or (443 if ssl else 8000)
    return chromadb.HttpClient(host=parts.hostname or "localhost", port=port, ssl=ssl, settings=_settings())
