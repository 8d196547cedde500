"""Starting and stopping real server processes in tests, with bounded waits."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(argv: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    handle = log.open("wb")
    return subprocess.Popen(argv, cwd=REPO, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)


def python(*args: str) -> list[str]:
    return [sys.executable, *args]


def wait_for(
    condition: Callable[[], bool],
    *,
    timeout: float,
    what: str,
    process: subprocess.Popen[bytes] | None = None,
    log: Path | None = None,
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise AssertionError(f"{what}: process exited with {process.returncode}\n{tail(log)}")
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout:.0f}s\n{tail(log)}")


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def tail(log: Path | None, lines: int = 40) -> str:
    if log is None or not log.exists():
        return ""
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def stop(process: subprocess.Popen[bytes], *, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
    """Signal the process group, wait, and kill it if it does not exit in time; returns the exit code."""
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    return process.returncode


@dataclass(frozen=True)
class WebAndWorker:
    """A Daphne web server and a Celery worker started by ``web_and_worker``."""

    base: str
    logs: dict[str, Path]
    web: subprocess.Popen[bytes]
    worker: subprocess.Popen[bytes]

    def tails(self) -> str:
        """The ends of both logs, for a failing test's output."""
        return tail(self.logs["worker"], 60) + tail(self.logs["web"], 30)


@contextmanager
def web_and_worker(env: dict[str, str], folder: Path) -> Iterator[WebAndWorker]:
    """Daphne (on a free port, waited for) and a worker, both stopped on the way out; logs in ``folder``."""
    port, logs = free_port(), {name: folder / f"{name}.log" for name in ("web", "worker")}
    daphne = ["-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "context1_web.asgi:application"]
    web = start(python(*daphne), env=env, log=logs["web"])
    worker = start(python("-m", "worker"), env=env, log=logs["worker"])
    try:
        wait_for(lambda: port_open(port), timeout=60, what="daphne", process=web, log=logs["web"])
        yield WebAndWorker(f"http://127.0.0.1:{port}", logs, web, worker)
    finally:
        stop(worker)
        stop(web)
