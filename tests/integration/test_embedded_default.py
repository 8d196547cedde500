"""The embedded default: from an empty data folder, one command brings up the whole product."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

import httpx
import pytest

from tests.support import processes
from tests.support.launcher import launcher_env

pytestmark = [pytest.mark.services, pytest.mark.embedded]

# Start-up noise a clean start must not print (issue 11 (10)): Celery's warning about running as root, the
# embedded Redis's banner and memory-overcommit advice, the embedding model's "Loading weights" progress bars
# (logged as WARNING), bm25s's DEBUG lines, the routine BM25 refresh tasks, a 404 for /favicon.ico, and Celery's
# banners (the worker's ASCII art with its transport URL and queue table, beat's "LocalTime -> ... Configuration");
# and (issue 34) Daphne's HTTP/2 notice (said as "Serving HTTP/1.1 and WebSocket") and migrate's headings (said as
# "Database up to date" or the migrations applied).
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
    "HTTP/2 support not enabled",
    "Running migrations:",
)


def test_it_starts_from_a_clean_data_folder_and_stops_on_ctrl_c(tmp_path_factory: pytest.TempPathFactory) -> None:
    data_dir = tmp_path_factory.mktemp("embedded") / "data"
    port = processes.free_port()
    log = data_dir.parent / "launcher.log"
    launcher = processes.start(
        processes.python("-m", "context1_web.launcher"), env=launcher_env(data_dir, port), log=log
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
        login_file = (data_dir / "demo_login.txt").resolve()
        password = login_file.read_text().splitlines()[1]
        assert f"log in as demo with password {password} (kept in {login_file})" in log.read_text()
        assert log.read_text().count(password) == 1  # the first start shows it once
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
    assert "    Applied " in output  # the migrations of a new database
    assert "daphne.server: Serving HTTP/1.1 and WebSocket" in output
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
            processes.python("-m", "context1_web.launcher"), env=launcher_env(tmp_path / "data", port), log=log
        )
        code = launcher.wait(timeout=60)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert code == 2
    assert lines == [f"error: cannot listen on 127.0.0.1:{port} (Address already in use); set PORT to a free port"]
