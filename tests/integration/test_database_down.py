"""The real web process (Daphne) with its database unreachable (PostgreSQL's port refusing connections): a page
that needs the database answers a clear 503, not a traceback, and the health check says the database is down."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.support import processes

pytestmark = pytest.mark.services


def test_the_web_process_answers_503_while_its_database_is_unreachable(process_env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    closed = processes.free_port()  # nothing listens there: every connection is refused
    env = {**process_env, "DATABASE_URL": f"postgres://127.0.0.1:{closed}/context1", "DEBUG": "false"}
    with processes.daphne(env, tmp_path / "web.log") as (base, web), httpx.Client(base_url=base, timeout=30) as client:
        form = client.get("/accounts/login/")
        assert form.status_code == 200  # a page that needs no database still works
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
        assert token is not None
        answer = client.post(
            "/accounts/login/",
            data={"username": "ada", "password": "secret", "csrfmiddlewaretoken": token.group(1)},
            headers={"Referer": f"{base}/accounts/login/"},
        )
        assert answer.status_code == 503, processes.tail(tmp_path / "web.log")
        assert answer.headers["Retry-After"] == "5"
        assert "The database is not answering right now" in answer.text
        assert "Traceback" not in answer.text
        assert client.get("/healthz").status_code == 503
        assert web.poll() is None  # still serving
