"""Probe item 10: killing the `make run` supervisor with SIGKILL (an OOM kill, a closed terminal's hard kill) left
its children running in their own sessions (an embedded redis-server with its data folder deleted, Daphne on the
port, the worker and beat), and the next start was refused until they were found and killed by hand. Every child
now dies with the supervisor (context1_web/die_with_parent.py: PR_SET_PDEATHSIG before exec), and a start cleans a
dead run's Redis socket and pid (context1_web.embedded_redis.shut_down_orphan). The worker is sent SIGKILL (sent
SIGTERM or SIGQUIT with its Redis gone, it was seen alive after 5 s under load); the files it held are queued again by
the next start's sweep once their lease ends. Real processes: the launcher with its embedded Redis, Daphne, worker
and beat."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from tests.support import launcher, processes

pytestmark = [pytest.mark.services, pytest.mark.embedded]


def test_nothing_outlives_a_killed_launcher_and_a_restart_finds_everything(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    data_dir = tmp_path_factory.mktemp("killed") / "data"
    port = processes.free_port()
    # a short ingest lease and sweep: the files the killed worker held are queued again soon after the restart
    env = {
        **launcher.launcher_env(data_dir, port),
        "EMBEDDER_BACKEND": "hashing",
        "INGEST_LEASE_SECONDS": "3",
        "RUN_SWEEP_SECONDS": "2",
    }
    first_log, second_log = data_dir.parent / "first.log", data_dir.parent / "second.log"
    supervisor = processes.start(processes.python("-m", "context1_web.launcher"), env=env, log=first_log)
    try:
        processes.wait_for(
            lambda: " ready." in first_log.read_text() and processes.port_open(port),
            timeout=240,
            what="the stack",
            process=supervisor,
            log=first_log,
        )
        children = launcher.descendants(supervisor.pid)
        for part in ("redis-server", "daphne", "-m worker --quiet", "-m worker beat"):
            assert any(part in command for command in children.values()), (part, children)
    finally:
        supervisor.kill()  # SIGKILL: no handler runs, nothing is stopped by the launcher itself
        supervisor.wait(timeout=10)
    try:
        processes.wait_for(
            lambda: not any(launcher.alive(pid) for pid in children), timeout=5, what="every child gone", log=first_log
        )
    except AssertionError as error:  # say which child outlived it
        left = {pid: command for pid, command in children.items() if launcher.alive(pid)}
        raise AssertionError(f"still alive: {left}") from error
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
        processes.wait_for(  # the demo corpus the first run began is ingested (what was in flight queued again)
            lambda: _documents(data_dir) > 0, timeout=120, what="the demo corpus's documents", log=second_log
        )
        assert "already runs on" not in second_log.read_text()
    finally:
        code = processes.stop(again, sig=signal.SIGINT, timeout=60)
    assert code == 0, second_log.read_text()[-3000:]


def _documents(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / "db.sqlite3") as database:
        (documents,) = database.execute("SELECT count(*) FROM research_document").fetchone()
    return int(documents)
