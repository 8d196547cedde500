"""Processes a benchmark starts and stops: a free port, bounded waits, a logged process group, the embedded Redis."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connection

from context1_web.embedded_redis import server_command, socket_in_use, wait_until_ready


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def until(condition: Callable[[], bool], *, timeout: float, what: str, logs: Path) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} not ready within {timeout:.0f}s (logs in {logs})")
        time.sleep(0.2)


def terminate(child: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL after 20 s."""
    child.terminate()
    try:
        child.wait(timeout=20)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


@dataclass
class Processes:
    """Child processes started with one environment, each logging to its own file under ``logs``."""

    env: dict[str, str]
    logs: Path
    children: list[subprocess.Popen[bytes]] = field(default_factory=list)
    pids: dict[str, int] = field(default_factory=dict)

    def spawn(self, name: str, argv: list[str]) -> Path:
        log = self.logs / f"{name}.log"
        self.children.append(subprocess.Popen(argv, env=self.env, stdout=log.open("wb"), stderr=subprocess.STDOUT))
        self.pids[name] = self.children[-1].pid
        return log

    def stop(self) -> None:
        for child in reversed(self.children):
            terminate(child)

    def embedded_redis(self) -> None:
        """Start the embedded Redis when settings name it (no REDIS_URL) and nothing serves its socket yet."""
        socket_path = settings.REDIS.socket_path
        if socket_path is None or socket_in_use(socket_path):
            return
        socket_path.parent.mkdir(parents=True, exist_ok=True)
        (settings.DATA_DIR / "redis").mkdir(parents=True, exist_ok=True)
        socket_path.unlink(missing_ok=True)
        self.spawn("redis", server_command(socket_path=socket_path, data_dir=settings.DATA_DIR / "redis"))
        wait_until_ready(socket_path, self.children[-1])


@contextmanager
def embedded_redis(env: dict[str, str], logs: Path) -> Iterator[None]:
    """The embedded Redis for a benchmark that runs in this process, stopped after it (when it started it)."""
    processes = Processes(env, logs)
    try:
        processes.embedded_redis()
        yield
    finally:
        processes.stop()


def database_ensure() -> None:
    """Create the PostgreSQL database the settings name when it does not exist yet (a benchmark's own database, as
    `make bench` names one); SQLite makes its file by itself."""
    if connection.vendor != "postgresql":
        return
    name = connection.settings_dict["NAME"]
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(f"CREATE DATABASE {connection.ops.quote_name(name)}")
