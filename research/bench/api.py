"""``manage.py bench_api``: the public API's event stream (server-sent events) against the page's WebSocket, and the
SDK against direct HTTP calls, on the real stack.

It starts Daphne and a Celery worker (research/bench/events.py's stack), creates ``runs`` runs and, for each, opens
one SSE client on ``/api/v1/runs/<id>/events`` (an API token) and one WebSocket client on ``/ws/runs/<id>/`` (a
session) *on the same run*, then has the worker stream ``events`` synthetic events in every run at once (the
product's durable sink). Latency is each client's receive time minus the time the event entered the worker's sink,
so the SSE/WebSocket ratio compares the two transports on the same events in the same run.

Then the SDK's overhead per run: for each finished run, its events read whole and its detail fetched with the SDK's
``Client`` and with plain httpx calls (the named baseline), alternately, in the same process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets
from context1_web_sdk import Client
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from research.api.tokens import token_create
from research.bench.events import (
    BenchSettings,
    Received,
    bench_user,
    create_runs,
    enqueue,
    receive,
    stack,
    stack_env,
    summarise,
    wait_done,
)
from research.models import ApiToken

SDK_BASELINE = "plain httpx: the same GETs, the stream's lines split by hand, JSON decoded, no models"


@dataclass(frozen=True)
class ApiBenchSettings:
    runs: int = 20  # one SSE client and one WebSocket client on each: 20 concurrent SSE clients
    events: int = 200
    interval_ms: float = 50.0


async def _sse_receive(http: httpx.AsyncClient, response: httpx.Response, expected: int) -> Received:
    received, seen, data = Received(), set(), ""
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            data = line[5:]
        elif line == "" and data:
            now, message, data = time.time(), json.loads(data), ""
            if "seq" not in message:
                break  # the end frame
            received.seqs.append(message["seq"])
            if message["seq"] not in seen:
                seen.add(message["seq"])
                sent_at = float(message["payload"]["call_id"].split(":")[1])
                received.latencies_ms.append((now - sent_at) * 1000)
            if len(seen) >= expected:
                break
    return received


async def _clients(port: int, cookie: str, key: str, run_ids: list[int], bench: ApiBenchSettings) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    limits = httpx.Limits(max_connections=len(run_ids) + 5)
    async with httpx.AsyncClient(
        base_url=base,
        headers={"Authorization": f"Bearer {key}"},
        timeout=httpx.Timeout(30.0, read=120.0),
        limits=limits,
    ) as http:
        headers = {"Origin": base, "Cookie": cookie}
        sockets = [
            await websockets.connect(
                f"ws://127.0.0.1:{port}/ws/runs/{run_id}/?after=0",
                additional_headers=headers,
                open_timeout=30,
                max_queue=None,
            )
            for run_id in run_ids
        ]
        streams = [http.stream("GET", f"/api/v1/runs/{run_id}/events") for run_id in run_ids]
        responses = [await stream.__aenter__() for stream in streams]
        try:
            for response in responses:
                response.raise_for_status()
            await asyncio.to_thread(_start, run_ids, bench)
            timeout = bench.events * bench.interval_ms / 1000 + 60
            deadline = time.monotonic() + timeout
            both = await asyncio.wait_for(
                asyncio.gather(
                    asyncio.gather(*(_sse_receive(http, r, bench.events) for r in responses)),
                    asyncio.gather(*(receive(s, bench.events, deadline) for s in sockets)),
                ),
                timeout=timeout,
            )
        finally:
            for stream in streams:
                await stream.__aexit__(None, None, None)
            for socket in sockets:
                await socket.close()
    return {"sse": list(both[0]), "websocket": list(both[1])}


def _start(run_ids: list[int], bench: ApiBenchSettings) -> None:
    enqueue(run_ids, bench.events, bench.interval_ms, durable=True)
    connection.close()  # used from asyncio's worker thread


def _mean_ms(samples: list[float]) -> float:
    return round(statistics.fmean(samples) * 1000, 2)


def sdk_overhead(base: str, key: str, run_ids: list[int]) -> dict[str, Any]:
    """Per run: every event read and the detail fetched, with the SDK's ``Client`` and with plain httpx."""
    sdk_s, direct_s, sdk_events, direct_events = [], [], 0, 0
    with (
        Client(base_url=base, api_key=key) as client,
        httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60) as http,
    ):
        for n, run_id in enumerate(run_ids * 2):
            for sdk in (n % 2 == 0, n % 2 == 1):  # alternate which goes first
                started = time.perf_counter()
                if sdk:
                    sdk_events += sum(1 for _ in client.events(run_id))
                    client.request("GET", f"/runs/{run_id}")
                    sdk_s.append(time.perf_counter() - started)
                else:
                    with http.stream("GET", f"/api/v1/runs/{run_id}/events") as response:
                        direct_events += sum(
                            1 for line in response.iter_lines() if line.startswith("data:") and '"seq"' in line
                        )
                    http.get(f"/api/v1/runs/{run_id}").raise_for_status()
                    direct_s.append(time.perf_counter() - started)
    sdk_ms, direct_ms = _mean_ms(sdk_s), _mean_ms(direct_s)
    return {
        "per_run_ms": sdk_ms,
        "baseline_per_run_ms": direct_ms,
        "overhead_ms": round(sdk_ms - direct_ms, 2),
        "ratio": round(sdk_ms / direct_ms, 2) if direct_ms else None,
        "events_read": sdk_events,
        "baseline_events_read": direct_events,
        "baseline": SDK_BASELINE,
    }


def bench_api(bench: ApiBenchSettings) -> dict[str, Any]:
    """Warm up, then the SSE and WebSocket clients on the same runs, then the SDK; the figures as a JSON-ready dict."""
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request would drown the figures
    settings.DATA_DIR.mkdir(parents=True, exist_ok=True)
    call_command("migrate", interactive=False, verbosity=0)
    workspace, cookie = bench_user()
    owner = workspace.memberships.get().user
    ApiToken.objects.filter(user=owner, name="bench_api").delete()
    key = token_create(user=owner, workspace_slug=workspace.slug, name="bench_api").key
    logs = Path(tempfile.mkdtemp(prefix="bench-api-"))
    env = {
        **stack_env(BenchSettings(runs=bench.runs)),
        "API_REQUESTS_PER_MINUTE": "100000",  # the bench's own clients, not what a limit protects against
    }
    with stack(env, logs) as running:
        warm = ApiBenchSettings(runs=min(bench.runs, 2), events=30, interval_ms=bench.interval_ms)
        asyncio.run(_clients(running.port, cookie, key, create_runs(workspace, warm.runs), warm))
        run_ids = create_runs(workspace, bench.runs)
        started, cpu_before = time.monotonic(), running.cpu_seconds()
        received = asyncio.run(_clients(running.port, cookie, key, run_ids, bench))
        elapsed = time.monotonic() - started
        cpu_after = running.cpu_seconds()
        wait_done(run_ids, timeout=60)
        sdk = sdk_overhead(f"http://127.0.0.1:{running.port}", key, run_ids)
    sse = summarise(received["sse"], expected=bench.events)
    websocket = summarise(received["websocket"], expected=bench.events)
    ratio = {key: round(sse[key] / websocket[key], 2) if websocket[key] else None for key in ("p50_ms", "p95_ms")}
    return {
        "runs": bench.runs,
        "events": bench.events,
        "sse_clients": bench.runs,
        "sse": sse,
        "websocket": websocket,
        "ratio_p50": ratio["p50_ms"],
        "ratio_p95": ratio["p95_ms"],
        "elapsed_s": round(elapsed, 2),
        "cpu_s": {name: round(cpu_after[name] - cpu_before.get(name, 0.0), 2) for name in cpu_after},
        "sdk": sdk,
        "settings": {
            "interval_ms": bench.interval_ms,
            "database": connection.vendor,
            "cpus": os.cpu_count(),
            "load_average_1m": round(os.getloadavg()[0], 2),
            "logs": str(logs),
        },
    }
