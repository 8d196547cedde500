"""Opening Chroma: a client of a Chroma server never turns the process's later embedded clients into clients of that
server (chromadb's HttpClient writes its server into the Settings object it is given; they were shared)."""

from __future__ import annotations

from pathlib import Path

import pytest

from research.retrieval.chroma_client import open_client
from tests.support.processes import free_port


def test_an_embedded_client_opens_after_a_server_client(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="Could not connect"):  # nothing listens there
        open_client(url=f"http://127.0.0.1:{free_port()}", path=tmp_path / "unused")
    client = open_client(url=None, path=tmp_path / "chroma")
    assert client.heartbeat() > 0
    assert client.get_or_create_collection("still-embedded").count() == 0
