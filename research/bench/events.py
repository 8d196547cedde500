"""``manage.py bench_events``: sink-to-browser latency of run events through the real stack, against a baseline.

It starts a Daphne process and a Celery worker process (and the embedded Redis when ``REDIS_URL``
is unset), opens one real WebSocket client per run on ``/ws/runs/<id>/``, and has the worker stream
``events`` synthetic events in each of ``runs`` concurrent runs (research/bench/event_stream.py).
Latency is the client's receive time minus the time the event entered the worker's sink. The same
processes and clients then measure the baseline (the same sink and publisher without the database
write), so the ratio is the price of durability measured in the same run.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

import websockets
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.management import call_command
from django.db import connection

from context1_web.celery import app
from research.bench.event_stream import BASELINE
from research.bench.processes import Processes, free_port, port_open, until
from research.bench.tasks import BENCH_STREAM_TASK
from research.models import Membership, Role, Run, RunEvent, Workspace


@dataclass(frozen=True)
class BenchSettings:
    runs: int = 10
    events: int = 1_000
    interval_ms: float = 50.0  # between two events of one run: 20 events/s, about a 4-rollout run on vLLM


@dataclass
class Received:
    """What one client saw of one run."""

    seqs: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Stack:
    port: int  # the (first) web process's
    pids: dict[str, int]  # process name -> pid
    web_ports: tuple[int, ...] = ()  # every web process's port, where there are several

    @property
    def ports(self) -> tuple[int, ...]:
        return self.web_ports or (self.port,)

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time used so far by each process with the processes under it (a prefork worker's pool), and by this
        one (the clients), from /proc where there is one."""
        used = {"clients": sum(os.times()[:2])}
        tree = _process_tree()
        for name, pid in self.pids.items():
            ticks = [_stat_ticks(member) for member in _under(pid, tree)]
            if ticks and ticks[0] is not None:
                used[name] = sum(tick or 0 for tick in ticks) / os.sysconf("SC_CLK_TCK")
        return used

    def peak_rss_mb(self) -> dict[str, float]:
        """Each process's peak resident memory so far (VmHWM), in MiB, with the processes under it added (a prefork
        worker's pool), from /proc where there is one."""
        tree = _process_tree()
        peaks = {}
        for name, pid in self.pids.items():
            kib = [_peak_kib(member) for member in _under(pid, tree)]
            if kib and kib[0] is not None:
                peaks[name] = round(sum(value or 0 for value in kib) / 1024, 1)
        return peaks


def _process_tree() -> dict[int, list[int]]:
    """Parent pid -> its children's pids, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    return children


def _under(pid: int, tree: dict[int, list[int]]) -> list[int]:
    """``pid`` first, then every process under it."""
    found, frontier = [pid], [pid]
    while frontier:
        for child in tree.get(frontier.pop(), []):
            found.append(child)
            frontier.append(child)
    return found


def _stat_ticks(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return sum(int(value) for value in fields[11:15])  # its own time and that of its children it has reaped


def _peak_kib(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), None)


def stack_env(bench: BenchSettings) -> dict[str, str]:
    """The processes' environment: a thread-pool worker with a thread per run, progress on its console."""
    return {
        **os.environ,
        "WORKER_POOL": "threads",
        "WORKER_CONCURRENCY": str(bench.runs + 1),
        "WORKER_WARMUP": "research.platform.warmup.open_chroma",
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
        "SECRET_KEY": settings.SECRET_KEY,  # this command may run with a per-process key: share it with them
    }


@contextmanager
def stack(env: dict[str, str], logs: Path) -> Iterator[Stack]:
    """Embedded Redis if needed, Daphne and a worker started with ``env``; yields them and stops everything
    after. The worker counts as ready once its log says " ready." (its warm-ups done)."""
    processes = Processes(env, logs)
    try:
        processes.embedded_redis()
        port = free_port()
        daphne = ["-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port), "context1_web.asgi:application"]
        processes.spawn("daphne", [sys.executable, *daphne])
        worker_log = processes.spawn("worker", [sys.executable, "-m", "worker", "--hostname", f"bench-{port}@%h"])
        until(lambda: port_open(port), timeout=60, what="daphne", logs=logs)
        until(lambda: " ready." in worker_log.read_text(errors="replace"), timeout=180, what="worker", logs=logs)
        yield Stack(port=port, pids=processes.pids)
    finally:
        processes.stop()


# --- the bench user, its session and its runs ----------------------------------------------------
def bench_user() -> tuple[Workspace, str]:
    """The bench workspace (emptied of earlier bench runs) and a session cookie of its owner."""
    user, _ = get_user_model().objects.get_or_create(username="bench-events")
    workspace, _ = Workspace.objects.get_or_create(slug="bench-events", defaults={"name": "Bench events"})
    Membership.objects.get_or_create(workspace=workspace, user=user, defaults={"role": Role.OWNER})
    Run.objects.filter(workspace=workspace).delete()
    return workspace, session_cookie(user)


def session_cookie(user: AbstractBaseUser) -> str:
    """A ``Cookie`` header value holding a new logged-in session of ``user`` (for WebSocket clients)."""
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def create_runs(workspace: Workspace, count: int) -> list[int]:
    return [
        # not enqueued_at: the runs queue's dispatcher must not take it (its own task streams it)
        Run.objects.create(workspace=workspace, question="bench_events", rollouts=1).pk
        for _ in range(count)
    ]


def enqueue(run_ids: list[int], events: int, interval_ms: float, *, durable: bool) -> None:
    for run_id in run_ids:
        app.send_task(BENCH_STREAM_TASK, args=(run_id, events, interval_ms, durable))


def wait_done(run_ids: list[int], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while Run.objects.filter(pk__in=run_ids, finished_at__isnull=True).exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the worker did not finish the bench runs in time")
        time.sleep(0.2)


# --- the clients -----------------------------------------------------------------------------------
async def receive(socket: Any, expected: int, deadline: float) -> Received:
    received = Received()
    seen: set[int] = set()
    while len(seen) < expected and (remaining := deadline - time.monotonic()) > 0:
        try:
            raw = await asyncio.wait_for(socket.recv(), timeout=remaining)
        except TimeoutError:
            break
        now = time.time()
        message = json.loads(raw)
        received.seqs.append(message["seq"])
        if message["seq"] not in seen:
            seen.add(message["seq"])
            sent_at = float(message["payload"]["call_id"].split(":")[1])
            received.latencies_ms.append((now - sent_at) * 1000)
    return received


async def _clients(
    port: int, cookie: str, run_ids: list[int], *, start: Callable[[], None], expected: int, timeout: float
) -> list[Received]:
    headers = {"Origin": f"http://127.0.0.1:{port}", "Cookie": cookie}
    urls = [f"ws://127.0.0.1:{port}/ws/runs/{run_id}/?after=0" for run_id in run_ids]
    sockets = [
        await websockets.connect(url, additional_headers=headers, open_timeout=30, max_queue=None) for url in urls
    ]
    try:
        await asyncio.to_thread(start)
        deadline = time.monotonic() + timeout
        return list(await asyncio.gather(*(receive(socket, expected, deadline) for socket in sockets)))
    finally:
        for socket in sockets:
            await socket.close()


def _phase(stack: Stack, cookie: str, workspace: Workspace, bench: BenchSettings, *, durable: bool) -> dict[str, Any]:
    run_ids = create_runs(workspace, bench.runs)
    port, cpu_before = stack.port, stack.cpu_seconds()
    timeout = bench.events * bench.interval_ms / 1000 + 60

    def start() -> None:
        enqueue(run_ids, bench.events, bench.interval_ms, durable=durable)
        connection.close()  # used from asyncio's worker thread

    started = time.monotonic()
    received = asyncio.run(_clients(port, cookie, run_ids, start=start, expected=bench.events, timeout=timeout))
    elapsed = time.monotonic() - started
    wait_done(run_ids, timeout=60)
    figures = summarise(received, expected=bench.events)
    figures["events_per_s"] = round(bench.runs * bench.events / elapsed, 1)
    cpu_after = stack.cpu_seconds()
    figures["cpu_s"] = {name: round(cpu_after[name] - cpu_before.get(name, 0.0), 2) for name in cpu_after}
    if durable:
        figures["stored_intact"] = _stored_intact(run_ids, bench.events)
    return figures


def _stored_intact(run_ids: list[int], events: int) -> bool:
    for run_id in run_ids:
        seqs = list(RunEvent.objects.filter(run_id=run_id).order_by("seq").values_list("seq", flat=True))
        if seqs != list(range(1, events + 1)):
            return False
    return True


def summarise(received: list[Received], *, expected: int) -> dict[str, Any]:
    """p50/p95/p99/max latency over every run's events; lost = expected but never received; duplicated = extra."""
    latencies = sorted(ms for run in received for ms in run.latencies_ms)
    unique = sum(len(set(run.seqs)) for run in received)
    total = sum(len(run.seqs) for run in received)
    quantiles = statistics.quantiles(latencies, n=100, method="inclusive") if len(latencies) > 1 else latencies * 99
    return {
        "p50_ms": round(quantiles[49], 2) if latencies else None,
        "p95_ms": round(quantiles[94], 2) if latencies else None,
        "p99_ms": round(quantiles[98], 2) if latencies else None,
        "max_ms": round(latencies[-1], 2) if latencies else None,
        "lost": expected * len(received) - unique,
        "duplicated": total - unique,
    }


def bench_events(bench: BenchSettings) -> dict[str, Any]:
    """Run the warm-up, the baseline and the product's path; the figures as a JSON-ready dict."""
    settings.DATA_DIR.mkdir(parents=True, exist_ok=True)
    call_command("migrate", interactive=False, verbosity=0)
    workspace, cookie = bench_user()
    logs = Path(tempfile.mkdtemp(prefix="bench-events-"))
    with stack(stack_env(bench), logs) as running:
        warm = BenchSettings(runs=min(bench.runs, 2), events=50, interval_ms=bench.interval_ms)
        for durable in (False, True):
            _phase(running, cookie, workspace, warm, durable=durable)
        baseline = _phase(running, cookie, workspace, bench, durable=False)
        ours = _phase(running, cookie, workspace, bench, durable=True)
    ratio = {key: round(ours[key] / baseline[key], 2) if baseline[key] else None for key in ("p50_ms", "p95_ms")}
    return {
        "runs": bench.runs,
        "events": bench.events,
        **ours,
        "baseline": {"name": BASELINE, **baseline},
        "ratio_p50": ratio["p50_ms"],
        "ratio_p95": ratio["p95_ms"],
        "settings": {
            "interval_ms": bench.interval_ms,
            "database": connection.vendor,
            "redis": settings.REDIS.celery_url.split("://")[0] + (" (embedded)" if settings.REDIS.socket_path else ""),
            "worker_pool": "threads",
            "cpus": os.cpu_count(),
            "load_average_1m": round(os.getloadavg()[0], 2),
            "logs": str(logs),
        },
    }
