"""A database that does not answer: a clear 503 page (or JSON), not a traceback; the next request recovers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from django.test import Client


def refused(self: Any) -> Any:
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


@pytest.fixture
def down(
    make_user: Callable[..., Any],
    make_workspace: Callable[..., Any],
    login: Callable[..., Client],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Client, str]:
    """A member's client and workspace slug; from then on every session read fails as a lost PostgreSQL
    connection does (``monkeypatch.undo`` brings the database back)."""
    ada = make_user()
    workspace = make_workspace(ada)
    client = login(ada)
    monkeypatch.setattr(SessionStore, "load", refused)
    return client, workspace.slug


def test_a_page_says_to_try_again_with_a_503_and_recovers(
    down: tuple[Client, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, slug = down
    response = client.get(f"/w/{slug}/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "The database is not answering right now; nothing you sent was lost." in page
    assert "Traceback" not in page
    assert "Connection refused" not in page  # the cause is logged, not shown
    monkeypatch.undo()
    assert client.get(f"/w/{slug}/").status_code == 200


def test_a_json_client_gets_json(down: tuple[Client, str]) -> None:
    client, slug = down
    response = client.get(f"/w/{slug}/runs.json")
    assert response.status_code == 503
    assert response.json()["error"].startswith("The database is not answering")
