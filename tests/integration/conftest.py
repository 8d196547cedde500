"""Environment for real server processes that share the test database, Redis and secret key."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection


def _database_url(settings_dict: dict[str, Any]) -> str:
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    user = settings_dict.get("USER") or "postgres"
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture
def process_env(transactional_db: None) -> dict[str, str]:
    """What a Daphne or Celery process needs to see the test's database and Redis."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.update(
        DATABASE_URL=_database_url(connection.settings_dict),
        SECRET_KEY=settings.SECRET_KEY,
        DATA_DIR=str(settings.DATA_DIR),
        REDIS_KEY_PREFIX=settings.REDIS.key_prefix,
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="INFO",
    )
    if settings.REDIS.url is not None:
        env["REDIS_URL"] = settings.REDIS.url
    return env


@pytest.fixture
def bench_command_env(process_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """For a benchmark command run in the test: the processes it starts get ``process_env``, and its log
    folder (made with ``tempfile``) lies in ``tmp_path`` and goes away with the test; returns ``tmp_path``."""
    for key, value in process_env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path
