from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from context1_web import launcher


def test_it_names_a_missing_dependency_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launcher, "REQUIRED_MODULES", ("django", "surely_not_installed_pkg"))
    with pytest.raises(launcher.StartupError, match=r"^missing dependency surely_not_installed_pkg: run `make run`"):
        launcher.check_dependencies()


def test_it_refuses_a_port_in_use() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(launcher.StartupError, match=f"cannot listen on 127.0.0.1:{port}"):
            launcher.check_port_free("127.0.0.1", port)


def test_it_creates_a_private_secret_key_once(tmp_path: Path) -> None:
    launcher.ensure_secret_key({}, tmp_path)
    key = (tmp_path / "secret_key").read_text()
    launcher.ensure_secret_key({}, tmp_path)
    assert (tmp_path / "secret_key").read_text() == key
    assert len(key) > 40
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    launcher.ensure_secret_key({"SECRET_KEY": "given"}, tmp_path / "other")
    assert not (tmp_path / "other" / "secret_key").exists()


def test_an_embedded_redis_no_launcher_owns_is_stopped(tmp_path: Path) -> None:
    from context1_web.embedded_redis import server_command, shut_down_orphan, socket_in_use, wait_until_ready

    sock = Path(tempfile.mkdtemp(prefix="c1r-")) / "redis.sock"  # unix socket paths are short
    left = subprocess.Popen(server_command(socket_path=sock, data_dir=tmp_path), stdout=subprocess.DEVNULL)
    try:
        wait_until_ready(sock, left)
        assert shut_down_orphan(sock) is True  # its parent is this test, not a launcher: an earlier run's leftover
        assert not socket_in_use(sock)
        assert left.wait(timeout=10) == 0
    finally:
        if left.poll() is None:
            left.kill()


def test_a_child_is_told_to_stop_when_the_launcher_is_gone_before_it_starts() -> None:
    # die_with_parent refuses to start the program when its parent is not the one named (the launcher died early)
    done = subprocess.run(
        [sys.executable, "-m", "context1_web.die_with_parent", "1", sys.executable, "-c", "print('started')"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, "")
    ran = subprocess.run(
        [sys.executable, "-c", DIE_WITH_THIS, sys.executable, "-c", "print('started')"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert ran.stdout.strip() == "started", ran.stderr


# Runs die_with_parent naming its own process as the parent, as the launcher does.
DIE_WITH_THIS = (
    "import os, subprocess, sys; "
    "sys.exit(subprocess.call([sys.executable, '-m', 'context1_web.die_with_parent', str(os.getpid()), *sys.argv[1:]]))"
)
