"""Where each backing service lives: embedded defaults under DATA_DIR, or URLs from the environment."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

# A unix socket path must fit in sockaddr_un.sun_path (108 bytes with the terminating NUL).
_MAX_SOCKET_PATH = 100
# The Redis pub/sub channel layer (channels_redis.pubsub): a group_send is one PUBLISH, and a web
# process holds one subscription per group. The list-based layer costs several Redis round trips
# per message on both sides; with ten busy run sockets Daphne spent about 2.4 ms of CPU per event
# on it against about 1.4 ms with pub/sub (`manage.py bench_events`, docs/benchmarks.md). Delivery is at
# most once either way: the database is the source of truth and sockets catch up from it.
# Its subscriber polls with get_message(timeout=0.1), so no read waits long on purpose; the socket timeout
# only bounds a Redis that stops answering (a PUBLISH or SUBSCRIBE then fails instead of hanging).
CHANNEL_LAYER_SOCKET_TIMEOUT = 30.0


@dataclass(frozen=True)
class RedisConfig:
    """How every process reaches Redis: a URL, or the embedded server's unix socket."""

    url: str | None
    socket_path: Path | None
    key_prefix: str

    @property
    def embedded(self) -> bool:
        return self.url is None

    @property
    def celery_url(self) -> str:
        if self.url is not None:
            return self.url
        return f"redis+socket://{self.socket_path}"

    @property
    def client_url(self) -> str:
        """A URL for redis-py (``redis.Redis.from_url``)."""
        if self.url is not None:
            return self.url
        return f"unix://{self.socket_path}"

    def channel_layer(self) -> dict[str, Any]:
        host = {"address": self.client_url, "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT}
        return {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [host], "prefix": f"{self.key_prefix}:asgi"},
        }


def redis_config(*, url: str | None, data_dir: Path, key_prefix: str) -> RedisConfig:
    if url is not None:
        return RedisConfig(url=url, socket_path=None, key_prefix=key_prefix)
    socket_path = data_dir / "run" / "redis.sock"
    if len(str(socket_path)) > _MAX_SOCKET_PATH:
        raise ImproperlyConfigured(
            f"DATA_DIR is too deep for the embedded Redis socket ({socket_path}); "
            "use a shorter DATA_DIR or set REDIS_URL"
        )
    return RedisConfig(url=None, socket_path=socket_path, key_prefix=key_prefix)


# Several processes (web, worker threads, beat) share one SQLite file: WAL lets readers run beside
# the writer, IMMEDIATE transactions take the write lock up front (waiting up to the timeout)
# instead of failing with "database is locked" when a read transaction tries to upgrade.
SQLITE_OPTIONS = {
    "timeout": 30,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def database_config(*, url: str | None, data_dir: Path, conn_max_age: int) -> dict[str, Any]:
    """Django's ``DATABASES['default']``: SQLite under DATA_DIR unless DATABASE_URL is set."""
    if url is None:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(data_dir / "db.sqlite3"),
            "OPTIONS": dict(SQLITE_OPTIONS),
            "TEST": {"NAME": str(data_dir / "test-db.sqlite3")},
        }
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=conn_max_age))
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not usable: {error}") from None
    if config["ENGINE"].endswith("sqlite3"):
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    return config


@dataclass(frozen=True)
class ChromaConfig:
    """Embedded ``PersistentClient`` under DATA_DIR, or a Chroma server at ``url``."""

    url: str | None
    path: Path

    @property
    def embedded(self) -> bool:
        return self.url is None


def chroma_config(*, url: str | None, data_dir: Path) -> ChromaConfig:
    return ChromaConfig(url=url, path=data_dir / "chroma")
