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


def worker(env: dict[str, str], log: Path, name: str, *, ready: str) -> subprocess.Popen[bytes]:
    """A Celery worker named ``name``, started and waited for until its log says ``ready`` (a warm-up done)."""
    process = start(python("-m", "worker", "--hostname", f"{name}@%h"), env=env, log=log)
    wait_for(lambda: ready in log.read_text(), timeout=120, what=name, process=process, log=log)
    return process


def stop_all(*processes: subprocess.Popen[bytes] | None) -> None:
    """Stop each process that was started (None: one the test did not get to)."""
    for process in processes:
        if process is not None:
            stop(process)


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
def daphne(env: dict[str, str], log: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Daphne on a free port, waited for, stopped on the way out: its base URL and its process."""
    port = free_port()
    web = start(
        python("-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "context1_web.asgi:application"), env=env, log=log
    )
    try:
        wait_for(lambda: port_open(port), timeout=60, what="daphne", process=web, log=log)
        yield f"http://127.0.0.1:{port}", web
    finally:
        stop(web)


@contextmanager
def web_and_worker(env: dict[str, str], folder: Path, *, ready: str | None = None) -> Iterator[WebAndWorker]:
    """Daphne (``daphne``) and a worker, both stopped on the way out; logs in ``folder``. With ``ready``, waits
    until the worker's log holds that text (" ready.", or a warm-up's "done" line)."""
    logs = {name: folder / f"{name}.log" for name in ("web", "worker")}
    worker = start(python("-m", "worker"), env=env, log=logs["worker"])
    try:
        with daphne(env, logs["web"]) as (base, web):
            if ready is not None:
                seen = lambda: ready in logs["worker"].read_text()  # noqa: E731
                wait_for(seen, timeout=120, what="worker", process=worker, log=logs["worker"])
            yield WebAndWorker(base, logs, web, worker)
    finally:
        stop(worker)
