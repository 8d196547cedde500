"""The embedded default: from an empty data folder, one command brings up the whole product."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
from pathlib import Path

import httpx
import pytest

from tests.support import processes

pytestmark = [pytest.mark.services, pytest.mark.embedded]

# The real default, MiniLM included (the suite's EMBEDDER_BACKEND=hashing would hide its loading lines).
_CLEAR = (
    "DATABASE_URL",
    "REDIS_URL",
    "CHROMA_URL",
    "SECRET_KEY",
    "VLLM_BASE_URL",
    "DJANGO_SETTINGS_MODULE",
    "EMBEDDER_BACKEND",
    "HF_HUB_DISABLE_PROGRESS_BARS",
    "TRANSFORMERS_VERBOSITY",
)
# Start-up noise a clean start must not print (issue 11 (10)): Celery's warning about running as root, the
# embedded Redis's banner and memory-overcommit advice, the embedding model's "Loading weights" progress bars
# (logged as WARNING), bm25s's DEBUG lines, the routine BM25 refresh tasks, a 404 for /favicon.ico, and Celery's
# banners (the worker's ASCII art with its transport URL and queue table, beat's "LocalTime -> ... Configuration").
NOISE = (
    "-------------- celery@",
    "[config]",
    ".> transport:",
    "[queues]",
    "celery beat v",
    "LocalTime ->",
    "superuser privileges",
    "SecurityWarning",
    "Memory overcommit",
    "overcommit_memory",
    "Redis is starting",
    "Loading weights",
    "Building index from",
    "ingest_refresh_sparse[",
    "Not Found: /favicon.ico",
)


def _launcher_env(data_dir: Path, port: int) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _CLEAR and not key.startswith("PYTEST")}
    env.update(DATA_DIR=str(data_dir), PORT=str(port), PYTHONUNBUFFERED="1")
    return env


def test_it_starts_from_a_clean_data_folder_and_stops_on_ctrl_c(tmp_path_factory: pytest.TempPathFactory) -> None:
    data_dir = tmp_path_factory.mktemp("embedded") / "data"
    port = processes.free_port()
    log = data_dir.parent / "launcher.log"
    launcher = processes.start(
        processes.python("-m", "context1_web.launcher"), env=_launcher_env(data_dir, port), log=log
    )
    try:
        processes.wait_for(
            lambda: "is running at" in log.read_text(), timeout=180, what="launcher", process=launcher, log=log
        )
        processes.wait_for(lambda: processes.port_open(port), timeout=60, what="web", process=launcher, log=log)
        base = f"http://127.0.0.1:{port}"
        login_page = httpx.get(f"{base}/accounts/login/", timeout=10)
        assert login_page.status_code == 200
        assert 'name="password"' in login_page.text
        health = httpx.get(f"{base}/healthz", timeout=10)
        assert health.status_code == 200, health.text
        checks = health.json()["checks"]
        assert checks["redis"]["detail"].endswith("(embedded)")
        assert checks["database"]["detail"] == "sqlite"
        assert checks["chroma"]["detail"] == "chroma embedded"
        assert (data_dir / "db.sqlite3").exists()
        assert "log in as demo with password" in log.read_text()
        assert httpx.get(f"{base}/favicon.ico", timeout=10, follow_redirects=True).status_code == 200
        processes.wait_for(
            lambda: "celery@" in log.read_text() and " ready." in log.read_text(),
            timeout=180,
            what="worker ready",
            process=launcher,
            log=log,
        )
        processes.wait_for(
            lambda: "BM25 index of corpus" in log.read_text(),
            timeout=240,
            what="the demo corpus's first BM25 rebuild",
            process=launcher,
            log=log,
        )
    finally:
        code = processes.stop(launcher, sig=signal.SIGINT, timeout=60)
    output = log.read_text()
    assert code == 0, output[-3000:]
    assert "==> stopped" in output
    assert "warm-up research.platform.warmup.load_embedder done" in output  # MiniLM was loaded
    assert [line for line in output.splitlines() if any(noise in line for noise in NOISE)] == []
    assert not processes.port_open(port)
    assert not (data_dir / "run" / "redis.sock").exists() or not _socket_answers(data_dir / "run" / "redis.sock")


def _socket_answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX) as probe:
        return probe.connect_ex(str(path)) == 0


def test_it_reports_a_busy_port_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        log = tmp_path / "launcher.log"
        launcher = processes.start(
            processes.python("-m", "context1_web.launcher"), env=_launcher_env(tmp_path / "data", port), log=log
        )
        code = launcher.wait(timeout=60)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert code == 2
    assert lines == [f"error: cannot listen on 127.0.0.1:{port} (Address already in use); set PORT to a free port"]


def _descendants(root: int) -> dict[int, str]:
    """Every living process under ``root`` (from /proc), with its command line."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = {}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                try:
                    found[pid] = (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")).decode()
                except OSError:
                    continue
                frontier.append(pid)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited
    except OSError:
        return False


def test_nothing_outlives_a_killed_launcher_and_a_restart_finds_everything(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    data_dir = tmp_path_factory.mktemp("killed") / "data"
    port = processes.free_port()
    env = {**_launcher_env(data_dir, port), "EMBEDDER_BACKEND": "hashing"}
    first_log, second_log = data_dir.parent / "first.log", data_dir.parent / "second.log"
    launcher = processes.start(processes.python("-m", "context1_web.launcher"), env=env, log=first_log)
    try:
        processes.wait_for(
            lambda: " ready." in first_log.read_text() and processes.port_open(port),
            timeout=240,
            what="the stack",
            process=launcher,
            log=first_log,
        )
        children = _descendants(launcher.pid)
        for part in ("redis-server", "daphne", "-m worker --quiet", "-m worker beat"):
            assert any(part in command for command in children.values()), (part, children)
    finally:
        launcher.kill()  # SIGKILL: no handler runs, nothing is stopped by the launcher itself
        launcher.wait(timeout=10)
    processes.wait_for(
        lambda: not any(_alive(pid) for pid in children), timeout=5, what="every child gone", log=first_log
    )
    assert not processes.port_open(port)

    again = processes.start(processes.python("-m", "context1_web.launcher"), env=env, log=second_log)
    try:
        processes.wait_for(
            lambda: "is running at" in second_log.read_text() and processes.port_open(port),
            timeout=240,
            what="the second start",
            process=again,
            log=second_log,
        )
        with sqlite3.connect(data_dir / "db.sqlite3") as database:
            (documents,) = database.execute("SELECT count(*) FROM research_document").fetchone()
        assert documents > 0  # the demo corpus ingested by the first run is there
        assert "already runs on" not in second_log.read_text()
    finally:
        code = processes.stop(again, sig=signal.SIGINT, timeout=60)
    assert code == 0, second_log.read_text()[-3000:]
