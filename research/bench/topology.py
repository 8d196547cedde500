"""The production topology for a benchmark (docker-compose.yml's processes, no Docker): a Chroma server from the
chromadb package, several Daphne processes and several prefork Celery workers on the runs queues."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from django.conf import settings
from django.test import override_settings

from context1_web.backing_services import chroma_config
from research.bench.events import Stack
from research.bench.processes import Processes, free_port, port_open, terminate, until
from research.platform import composition

RUNS_QUEUES = "runs,reports,default"  # the compose file's `worker` (uploads go to `worker-ingest`, not used here)


@contextmanager
def chroma_server(logs: Path) -> Iterator[str]:
    """The Chroma server ``CHROMA_URL`` names, or one started here (``chroma run`` on a free loopback port, a
    throwaway folder) for the whole benchmark; this process's own Chroma client uses it too, so what it ingests is
    what the workers search. Yields its URL."""
    if settings.CHROMA.url is not None:
        yield settings.CHROMA.url
        return
    port, folder = free_port(), Path(tempfile.mkdtemp(prefix="chroma-", dir=logs))
    chroma = Path(sys.executable).with_name("chroma")
    argv = [str(chroma), "run", "--path", str(folder), "--host", "127.0.0.1", "--port", str(port)]
    log = logs / "chroma.log"
    server = subprocess.Popen(
        argv,
        env={"PATH": "/usr/bin:/bin", "ANONYMIZED_TELEMETRY": "False"},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        until(lambda: port_open(port), timeout=60, what="the Chroma server", logs=logs)
        with override_settings(CHROMA=chroma_config(url=url, data_dir=settings.DATA_DIR)):
            composition.chroma_client.cache_clear()
            try:
                yield url
            finally:
                composition.chroma_client.cache_clear()
    finally:
        terminate(server)


@contextmanager
def production_stack(env: dict[str, str], logs: Path, *, webs: int, workers: int) -> Iterator[Stack]:
    """``webs`` Daphne processes and ``workers`` Celery workers on the runs queues (each with the pool ``env``
    names), all with ``env``; yields them once every pool process has warmed up and stops them after."""
    logs.mkdir(parents=True, exist_ok=True)
    processes = Processes({**env, "WORKER_QUEUES": RUNS_QUEUES}, logs)
    try:
        ports = tuple(free_port() for _ in range(webs))
        for number, port in enumerate(ports, start=1):
            daphne = ["-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port), "context1_web.asgi:application"]
            processes.spawn(f"daphne-{number}", [sys.executable, *daphne])
        worker_logs = [
            processes.spawn(
                f"worker-{number}", [sys.executable, "-m", "worker", "--hostname", f"bench-{ports[0]}-{number}@%h"]
            )
            for number in range(1, workers + 1)
        ]
        for port in ports:
            until(partial(port_open, port), timeout=60, what="daphne", logs=logs)
        # Each pool process runs the warm-ups of its own; the last one's line, once per pool process, means ready.
        warmed = f"warm-up {env['WORKER_WARMUP'].split(',')[-1]} done"
        pool = int(env["WORKER_CONCURRENCY"])
        for log in worker_logs:
            ready = lambda log=log: log.read_text(errors="replace").count(warmed) >= pool  # noqa: E731
            until(ready, timeout=240, what="worker", logs=logs)
        yield Stack(port=ports[0], pids=dict(processes.pids), web_ports=ports)
    finally:
        processes.stop()
