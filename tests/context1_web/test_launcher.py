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


FRESH_MIGRATE = """Operations to perform:
  Apply all migrations: admin, auth, research
Running migrations:
  Applying contenttypes.0001_initial... OK
  Applying auth.0001_initial... OK
  Applying research.0001_initial... OK
  Applying research.0002_runs... OK
  Applying research.0003_reports... OK
  Applying research.0004_schedules... OK
"""


def test_a_migrate_with_nothing_to_do_says_the_database_is_up_to_date() -> None:
    output = (
        "Operations to perform:\n  Apply all migrations: admin, auth, research\nRunning migrations:\n"
        "  No migrations to apply.\n"
    )
    assert launcher.migration_summary(output) == ["Database up to date"]


def test_a_migrate_names_the_migrations_it_applied_or_counts_many() -> None:
    assert launcher.migration_summary(FRESH_MIGRATE) == [
        "Applied 6 migrations (contenttypes.0001_initial ... research.0004_schedules)"
    ]
    two = "Running migrations:\n  Applying research.0019_x... OK\n  Applying research.0020_y... OK\n"
    assert launcher.migration_summary(two) == ["Applied research.0019_x, research.0020_y"]


def test_a_migrate_keeps_what_else_it_says() -> None:
    output = (
        "Running migrations:\n  No migrations to apply.\n"
        "  Your models in app(s): 'research' have changes that are not yet reflected in a migration.\n"
    )
    assert launcher.migration_summary(output) == [
        "Database up to date",
        "  Your models in app(s): 'research' have changes that are not yet reflected in a migration.",
    ]


def test_the_demo_password_is_printed_at_the_first_start_only(tmp_path: Path) -> None:
    login_file = tmp_path / "demo_login.txt"
    assert launcher.demo_login_lines(login_file, before=None) == []  # no demo login on file: nothing to point at
    login_file.write_text("demo\ns3cret\n")
    assert launcher.demo_login_lines(login_file, before=None) == [
        f"log in as demo with password s3cret (kept in {login_file})"
    ]
    assert launcher.demo_login_lines(login_file, before="demo\ns3cret\n") == [f"Demo login: see {login_file}"]
    # a new database gets a new password: said again, once
    assert launcher.demo_login_lines(login_file, before="demo\nold\n") == [
        f"log in as demo with password s3cret (kept in {login_file})"
    ]


def test_die_with_parent_takes_the_signal_to_be_sent_and_refuses_an_unknown_one() -> None:
    from context1_web import die_with_parent

    assert die_with_parent.main(["--signal", "NOPE", "1", sys.executable]) == 2
    assert die_with_parent.main(["--signal", "QUIT"]) == 2  # no parent, no program
    started = subprocess.run(
        [
            sys.executable,
            "-m",
            "context1_web.die_with_parent",
            "--signal",
            "QUIT",
            "1",
            sys.executable,
            "-c",
            "print(1)",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert started.returncode == 1  # its parent is not process 1: nothing started
    assert started.stdout == ""
