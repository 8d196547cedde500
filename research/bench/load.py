"""``manage.py bench_load``: concurrent real runs watched by real WebSocket viewers, level after level.

It ingests the demo corpus into a throwaway workspace, starts the real stack (Daphne, a Celery worker
with the product's thread pool, the embedded Redis when ``REDIS_URL`` is unset, the configured
database), and for each level N runs x M viewers: creates N runs of ``rollouts`` rollouts each (the
demo questions in turn), opens M WebSocket viewers on each run's socket in the page's own format
(``html`` fragments, or ``json``), then enqueues the runs. The worker's model is the offline heuristic
agent slowed by ``model_delay_s`` a call (research/bench/model.py), so a run has a served model's pace
while its searches, pruning, journal, channel layer and sockets are the product's own.

Latency of an event for a viewer = the time the viewer received it minus the time its row was stored
(``RunEvent.created_at``, set in the worker's writer just before the commit); so it holds the commit,
the publish, Redis, Daphne (access check, rendering) and the socket, not the at most one writer round
(20 ms) the event waited in the worker's queue. Lost = stored events of the run a viewer never got;
duplicated = frames of an event beyond the first. The named baseline is the first level of the same
run, 1 run x 1 viewer: each level's p95 is also given as a ratio to it.

``--topology production`` runs the same levels on the compose file's processes instead (PostgreSQL, Redis, a Chroma
server, prefork workers on the runs queues): first 1 web process + 1 worker, then 2 + 2 with the viewers spread over
both web processes in turn, and gives each size's limit and 2 + 2 over 1 + 1 level by level.
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from django.conf import settings
from django.db import connection

from research.bench.events import Stack, session_cookie, stack
from research.bench.model import DELAY_VARIABLE
from research.bench.processes import database_ensure, embedded_redis
from research.bench.topology import chroma_server, production_stack
from research.demo.seed import demo_questions
from research.models import Corpus, Membership, Run, RunEvent, RunStatus
from research.runs import services as runs
from research.runs.trial import demo_corpus_ingest, trial_clean, trial_workspace

P95_TARGET_MS = 250.0
_SEQ = re.compile(r'data-seq="(\d+)"')
_JSON_SEQ = re.compile(r'^\{"seq":(\d+),')


@dataclass(frozen=True)
class LoadSettings:
    runs: tuple[int, ...] = (1, 2, 4, 8)
    viewers: tuple[int, ...] = (1, 4)
    model_delay_s: float = 0.3  # per model call
    rollouts: int = 4
    max_turns: int = 8
    format: str = "html"  # what the run page's socket speaks; "json" is the API clients' format
    level_timeout_s: float = 600.0
    topology: str = "embedded"  # or "production": 1 web + 1 worker against 2 + 2 (PRODUCTION)
    worker_concurrency: int = 2  # pool processes per worker of the production topology (the compose file's)


@dataclass
class Viewer:
    """What one WebSocket viewer of one run received: (seq, unix receive time) per event frame."""

    run_id: int
    frames: list[tuple[int, float]] = field(default_factory=list)
    error: str = ""


# --- one level ---------------------------------------------------------------------------------------
async def _watch(viewer: Viewer, socket: Any, final: dict[int, int], deadline: float, json_format: bool) -> None:
    seen: set[int] = set()
    try:
        while (remaining := deadline - time.monotonic()) > 0:
            last = final.get(viewer.run_id)
            if last is not None and len(seen) >= last:
                return
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=min(0.5, remaining))
            except TimeoutError:
                continue
            now = time.time()
            found = _JSON_SEQ.match(raw) if json_format else None
            seqs = [int(found.group(1))] if found else [int(seq) for seq in _SEQ.findall(raw)]
            for seq in seqs:
                viewer.frames.append((seq, now))
                seen.add(seq)
    except websockets.ConnectionClosed as closed:
        viewer.error = f"socket closed: {closed}"


async def _poll_finished(run_ids: Sequence[int], final: dict[int, int], deadline: float) -> None:
    """Fill ``final`` (run id -> its last seq) as runs end, from the database."""

    def ended() -> dict[int, int]:
        rows = Run.objects.filter(pk__in=run_ids, finished_at__isnull=False).values_list("pk", "last_seq")
        found = dict(rows)
        connection.close()  # used from asyncio's worker threads
        return found

    while len(final) < len(run_ids) and time.monotonic() < deadline:
        final.update(await asyncio.to_thread(ended))
        await asyncio.sleep(0.2)


async def _level_clients(
    ports: tuple[int, ...], cookie: str, run_ids: list[int], *, viewers: int, fmt: str, timeout: float
) -> tuple[list[Viewer], float]:
    """Every viewer's socket opened (spread over the web processes' ports in turn), then the runs enqueued."""
    watchers = [Viewer(run_id) for run_id in run_ids for _ in range(viewers)]
    homes = [ports[number % len(ports)] for number in range(len(watchers))]
    sockets = await asyncio.gather(
        *(
            websockets.connect(
                f"ws://127.0.0.1:{port}/ws/runs/{w.run_id}/?after=0&format={fmt}",
                additional_headers={"Origin": f"http://127.0.0.1:{port}", "Cookie": cookie},
                open_timeout=60,
                max_queue=None,
            )
            for w, port in zip(watchers, homes, strict=True)
        )
    )
    try:
        started = time.monotonic()
        await asyncio.to_thread(_enqueue, run_ids)
        deadline, final = started + timeout, dict[int, int]()
        await asyncio.gather(
            _poll_finished(run_ids, final, deadline),
            *(_watch(w, s, final, deadline, fmt == "json") for w, s in zip(watchers, sockets, strict=True)),
        )
        return watchers, time.monotonic() - started
    finally:
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)


def _enqueue(run_ids: list[int]) -> None:
    for run_id in run_ids:
        runs.run_enqueue(run_id)
    connection.close()


def _create_runs(owner: Membership, corpus: Corpus, count: int, bench: LoadSettings) -> list[int]:
    """``count`` runs, not enqueued. Each asks a demo question with a number of its own appended: the worker
    keeps recent query embeddings, and runs of different users do not share their questions."""
    questions = demo_questions(limit=100)
    first = Run.objects.filter(workspace_id=owner.workspace_id).count()
    return [
        runs.run_start(
            actor=owner,
            question=f"{questions[number % len(questions)]} (request {number + 1})",
            corpora=[corpus],
            rollouts=bench.rollouts,
            max_turns=bench.max_turns,
            enqueue=False,
        ).pk
        for number in range(first, first + count)
    ]


@dataclass(frozen=True)
class Trial:
    """The running stack, the trial workspace's owner (and a session of theirs) and its demo corpus."""

    running: Stack
    cookie: str
    owner: Membership
    corpus: Corpus


def _level(trial: Trial, n: int, m: int, bench: LoadSettings) -> dict[str, Any]:
    run_ids = _create_runs(trial.owner, trial.corpus, n, bench)
    running = trial.running
    cpu_before = running.cpu_seconds()
    viewers, seconds = asyncio.run(
        _level_clients(running.ports, trial.cookie, run_ids, viewers=m, fmt=bench.format, timeout=bench.level_timeout_s)
    )
    cpu_after = running.cpu_seconds()
    cpu = {name: cpu_after[name] - cpu_before.get(name, 0.0) for name in cpu_after}
    return summarise_level(viewers, run_ids, seconds=seconds, cpu=cpu, rss=running.peak_rss_mb())


def summarise_level(
    viewers: list[Viewer], run_ids: list[int], *, seconds: float, cpu: dict[str, float], rss: dict[str, float]
) -> dict[str, Any]:
    """Latency, loss and cost of one level from what its viewers received and what the database stored."""
    stored_at = {
        (run_id, seq): at.timestamp()
        for run_id, seq, at in RunEvent.objects.filter(run_id__in=run_ids).values_list("run_id", "seq", "created_at")
    }
    stored: dict[int, set[int]] = {run_id: set() for run_id in run_ids}
    for run_id, seq in stored_at:
        stored[run_id].add(seq)
    statuses = dict(Run.objects.filter(pk__in=run_ids).values_list("pk", "status"))
    all_latencies: list[float] = []
    per_viewer_p95: list[float] = []
    lost = duplicated = 0
    for viewer in viewers:
        latencies = [
            (received - stored_at[(viewer.run_id, seq)]) * 1000
            for seq, received in _first_frames(viewer.frames)
            if (viewer.run_id, seq) in stored_at
        ]
        all_latencies += latencies
        if latencies:
            per_viewer_p95.append(_quantile(latencies, 95))
        unique = {seq for seq, _ in viewer.frames}
        lost += len(stored[viewer.run_id] - unique)
        duplicated += len(viewer.frames) - len(unique)
    events = len(stored_at)
    cpu_total = sum(value for name, value in cpu.items() if name != "clients")
    return {
        "runs": len(run_ids),
        "viewers_per_run": len(viewers) // max(1, len(run_ids)),
        "runs_finished": sum(status == RunStatus.FINISHED for status in statuses.values()),
        "runs_per_minute": round(len(run_ids) / seconds * 60, 2) if seconds else None,
        "seconds": round(seconds, 2),
        "events_stored": events,
        "frames_received": sum(len(v.frames) for v in viewers),
        "p50_ms": _rounded(_quantile(all_latencies, 50)),
        "p95_ms": _rounded(_quantile(all_latencies, 95)),
        "max_ms": _rounded(max(all_latencies, default=float("nan"))),
        "viewer_p95_ms_median": _rounded(statistics.median(per_viewer_p95) if per_viewer_p95 else float("nan")),
        "viewer_p95_ms_worst": _rounded(max(per_viewer_p95, default=float("nan"))),
        "lost": lost,
        "duplicated": duplicated,
        "errors": [v.error for v in viewers if v.error]
        + [f"run {pk} {status}" for pk, status in statuses.items() if status != RunStatus.FINISHED],
        "cpu_s": {name: round(value, 2) for name, value in cpu.items()},
        "cpu_ms_per_event": round(cpu_total / events * 1000, 2) if events else None,
        "peak_rss_mb": rss,
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


def _first_frames(frames: list[tuple[int, float]]) -> list[tuple[int, float]]:
    first: dict[int, float] = {}
    for seq, received in frames:
        first.setdefault(seq, received)
    return list(first.items())


def _quantile(values: Sequence[float], percent: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1]


def _rounded(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 1)  # NaN: nothing was received


def holds(level: dict[str, Any]) -> bool:
    """The target: p95 under 250 ms, nothing lost, no error, every run finished."""
    return (
        level["p95_ms"] is not None
        and level["p95_ms"] < P95_TARGET_MS
        and level["lost"] == 0
        and not level["errors"]
        and level["runs_finished"] == level["runs"]
    )


def limit_of(levels: Sequence[dict[str, Any]]) -> dict[str, int] | None:
    """The largest N x M (then the most runs) that held the target, and so did every level measured with no
    more runs and no more viewers: one lucky level above a failed one is not a limit."""
    sizes = [(level["runs"], level["viewers_per_run"]) for level in levels]
    failed = [size for level, size in zip(levels, sizes, strict=True) if not holds(level)]
    safe = [(n, m) for n, m in sizes if not any(fn <= n and fm <= m for fn, fm in failed)]
    if not safe:
        return None
    n, m = max(safe, key=lambda size: (size[0] * size[1], size[0]))
    return {"runs": n, "viewers_per_run": m}


# --- the whole benchmark -------------------------------------------------------------------------------
def _env(bench: LoadSettings) -> dict[str, str]:
    return {
        **os.environ,
        "INFERENCE_BACKEND": "heuristic",
        "WORKER_POOL": "threads",
        "WORKER_CONCURRENCY": str(min(64, max(bench.runs))),
        "RUNS_CONCURRENT_PER_WORKSPACE": str(min(64, max(bench.runs))),  # its runs share one workspace
        "WORKER_WARMUP": "research.platform.warmup.open_chroma,research.platform.warmup.load_embedder,"
        "research.bench.model.install",
        DELAY_VARIABLE: str(bench.model_delay_s),
        "LOG_LEVEL": "INFO",  # the worker says " ready." at INFO
        "PYTHONUNBUFFERED": "1",
        "SECRET_KEY": settings.SECRET_KEY,  # this command may run with a per-process key: share it with them
    }


def _measure(trial: Trial, bench: LoadSettings, progress: Any, prefix: str = "", *, slots: int = 1) -> dict[str, Any]:
    """A warm-up level (``slots`` runs at once: one for each pool process that runs runs), the 1 x 1 baseline, then
    every level of ``bench.runs`` x ``bench.viewers``; the limit."""
    _level(trial, slots, 1, bench)  # warm-up: every pool process's first searches, the first page renders
    baseline = _level(trial, 1, 1, bench)
    progress(_line(f"{prefix}baseline 1x1", baseline))
    levels: list[dict[str, Any]] = []
    for n in bench.runs:
        for m in bench.viewers:
            level = _level(trial, n, m, bench)
            level["p95_vs_baseline"] = _ratio(level["p95_ms"], baseline["p95_ms"])
            levels.append(level)
            progress(_line(f"{prefix}{n} runs x {m} viewers", level))
    return {
        "baseline": {"name": "1 run x 1 viewer, same stack and run", **baseline},
        "levels": levels,
        "limit": limit_of(levels),
    }


def _ratio(value: float | None, base: float | None) -> float | None:
    return round(value / base, 2) if value and base else None


def bench_load(bench: LoadSettings, progress: Any = print) -> dict[str, Any]:
    """Every level of ``bench.runs`` x ``bench.viewers`` after a 1 x 1 baseline; the figures as a dict."""
    if bench.topology == "production":
        return _bench_production(bench, progress)
    owner = trial_workspace("Load benchmark")
    logs = Path(tempfile.mkdtemp(prefix="bench-load-"))
    cleaned = False
    try:
        corpus = demo_corpus_ingest(owner, lambda done, total: progress(f"ingesting the demo corpus: {done}/{total}"))
        with stack(_env(bench), logs) as running:
            measured = _measure(Trial(running, session_cookie(owner.user), owner, corpus), bench, progress)
            trial_clean(owner)  # while Redis is up: removing the member tells its sockets
            cleaned = True
    finally:
        if not cleaned:
            trial_clean(owner)
    return {
        **measured,
        "target": TARGET,
        "settings": {
            **_shown_settings(bench),
            "worker_pool": "threads",
            "worker_concurrency": min(64, max(bench.runs)),
        },
        "logs": str(logs),
    }


TARGET = f"p95 < {P95_TARGET_MS:.0f} ms, 0 lost, no error"
# The production topology's two sizes, in this order: (web processes, runs workers).
PRODUCTION = ((1, 1), (2, 2))


class LoadError(Exception):
    """The benchmark cannot run as asked (said in one line)."""


def _production_env(bench: LoadSettings, chroma_url: str) -> dict[str, str]:
    return {
        **_env(bench),
        "WORKER_POOL": "prefork",
        "WORKER_CONCURRENCY": str(bench.worker_concurrency),
        "CHROMA_URL": chroma_url,
    }


def _bench_production(bench: LoadSettings, progress: Any) -> dict[str, Any]:
    """The same levels on 1 web process + 1 runs worker, then on 2 + 2 (viewers spread over the web processes),
    against one Chroma server, this PostgreSQL and Redis; each size's limit, and 2 + 2 over 1 + 1."""
    if connection.vendor != "postgresql":
        raise LoadError("--topology production needs PostgreSQL (set DATABASE_URL), as the compose file runs it")
    database_ensure()
    owner = trial_workspace("Load benchmark")
    logs = Path(tempfile.mkdtemp(prefix="bench-load-production-"))
    sizes: dict[str, dict[str, Any]] = {}
    cleaned = False
    try:
        with embedded_redis(dict(os.environ), logs), chroma_server(logs) as chroma_url:
            try:
                corpus = demo_corpus_ingest(
                    owner, lambda done, total: progress(f"ingesting the demo corpus: {done}/{total}")
                )
                cookie = session_cookie(owner.user)
                for webs, workers in PRODUCTION:
                    name = _size_name(webs, workers)
                    folder = logs / f"{webs}-web-{workers}-workers"
                    env = _production_env(bench, chroma_url)
                    with production_stack(env, folder, webs=webs, workers=workers) as running:
                        trial = Trial(running, cookie, owner, corpus)
                        slots = workers * bench.worker_concurrency
                        sizes[name] = _measure(trial, bench, progress, f"{name}: ", slots=slots)
            finally:
                trial_clean(owner)  # while the Chroma server and Redis are up
                cleaned = True
    finally:
        if not cleaned:  # Redis or the Chroma server did not start
            trial_clean(owner)
    one, two = (sizes[_size_name(*size)] for size in PRODUCTION)
    return {
        "sizes": sizes,
        "second_process": _second_process(one, two),
        "target": TARGET,
        "settings": {
            **_shown_settings(bench),
            "topology": "production",
            "worker_pool": "prefork",
            "worker_concurrency": bench.worker_concurrency,
            "chroma": "server",
        },
        "logs": str(logs),
    }


def _size_name(webs: int, workers: int) -> str:
    return f"{webs} web + {workers} worker{'s' if workers > 1 else ''}"


def _limit_size(limit: dict[str, int] | None) -> int | None:
    return limit["runs"] * limit["viewers_per_run"] if limit else None


def _second_process(one: dict[str, Any], two: dict[str, Any]) -> dict[str, Any]:
    """What the second web process and worker buy: each level's p95 and runs a minute, 2 + 2 over 1 + 1, and the
    limits' sizes (runs x viewers) likewise."""
    return {
        "limit_ratio": _ratio(_limit_size(two["limit"]), _limit_size(one["limit"])),
        "levels": [
            {
                "runs": a["runs"],
                "viewers_per_run": a["viewers_per_run"],
                "p95_ratio": _ratio(b["p95_ms"], a["p95_ms"]),
                "runs_per_minute_ratio": _ratio(b["runs_per_minute"], a["runs_per_minute"]),
            }
            for a, b in zip(one["levels"], two["levels"], strict=True)
        ],
    }


def _shown_settings(bench: LoadSettings) -> dict[str, Any]:
    return {
        "model_delay_s": bench.model_delay_s,
        "rollouts": bench.rollouts,
        "max_turns": bench.max_turns,
        "format": bench.format,
        "database": connection.vendor,
        "redis": settings.REDIS.celery_url.split("://")[0] + (" (embedded)" if settings.REDIS.socket_path else ""),
        "cpus": os.cpu_count(),
    }


def _line(name: str, level: dict[str, Any]) -> str:
    return (
        f"{name}: p50 {level['p50_ms']} ms, p95 {level['p95_ms']} ms, lost {level['lost']}, "
        f"{level['runs_per_minute']} runs/min, {level['cpu_ms_per_event']} CPU ms/event"
    )
