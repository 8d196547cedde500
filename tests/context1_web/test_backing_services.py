from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from context1_web.backing_services import CHANNEL_LAYER_SOCKET_TIMEOUT, chroma_config, database_config, redis_config


def test_it_uses_an_embedded_redis_socket_under_the_data_dir(tmp_path: Path) -> None:
    config = redis_config(url=None, data_dir=tmp_path, key_prefix="p")
    assert config.embedded
    assert config.socket_path == tmp_path / "run" / "redis.sock"
    assert config.celery_url == f"redis+socket://{tmp_path}/run/redis.sock"
    layer = config.channel_layer()
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"]["hosts"] == [
        {"address": f"unix://{tmp_path}/run/redis.sock", "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT}
    ]
    assert layer["CONFIG"]["prefix"] == "p:asgi"


def test_it_uses_an_external_redis_url_everywhere(tmp_path: Path) -> None:
    config = redis_config(url="redis://127.0.0.1:6379/3", data_dir=tmp_path, key_prefix="p")
    assert not config.embedded
    assert config.celery_url == config.client_url == "redis://127.0.0.1:6379/3"
    hosts = config.channel_layer()["CONFIG"]["hosts"]
    assert hosts == [{"address": "redis://127.0.0.1:6379/3", "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT}]


def test_it_refuses_a_data_dir_too_deep_for_a_unix_socket(tmp_path: Path) -> None:
    with pytest.raises(ImproperlyConfigured, match="too deep for the embedded Redis socket"):
        redis_config(url=None, data_dir=tmp_path / ("d" * 120), key_prefix="p")


def test_it_defaults_to_sqlite_in_wal_mode_under_the_data_dir(tmp_path: Path) -> None:
    config = database_config(url=None, data_dir=tmp_path, conn_max_age=0)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "db.sqlite3")
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_a_sqlite_url_gets_the_same_multi_process_options(tmp_path: Path) -> None:
    config = database_config(url=f"sqlite:///{tmp_path}/x.db", data_dir=tmp_path, conn_max_age=0)
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_it_parses_a_postgres_url(tmp_path: Path) -> None:
    config = database_config(url="postgres://me@db.example:5433/app", data_dir=tmp_path, conn_max_age=60)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["CONN_MAX_AGE"]) == ("db.example", 5433, "app", 60)


def test_it_points_chroma_at_the_data_dir_unless_a_server_is_set(tmp_path: Path) -> None:
    assert chroma_config(url=None, data_dir=tmp_path).path == tmp_path / "chroma"
    assert chroma_config(url=None, data_dir=tmp_path).embedded
    assert not chroma_config(url="http://chroma:8000", data_dir=tmp_path).embedded
