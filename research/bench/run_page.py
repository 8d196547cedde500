"""Measuring the run page: its weight (HTML + CSS + JS) and the time to the first socket fragment, for a run
with N stored events (``manage.py bench_run_page``).

A synthetic but realistic run (4 rollouts; per turn a model call, three searches of ten chunks, a fused
ranking of ten documents, now and then a prune and a budget level) is stored in a throwaway workspace,
the page is rendered through Django's test client, and the socket is opened in-process through the real
ASGI application and channel layer with ``?after=0&format=html``: the first frame's latency is what a
browser reconnecting from scratch waits, the last one's what a full replay costs.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from research.bench.processes import embedded_redis
from research.models import Corpus, Run, RunStatus
from research.protocol.events import (
    SEARCH,
    AnyEvent,
    BudgetLevelChanged,
    ChunkRef,
    ChunksPruned,
    FusedRankingUpdated,
    RankedDocument,
    RolloutFinished,
    RunFinished,
    RunStarted,
    ToolCalled,
    ToolReturned,
    TurnRecorded,
    TurnStarted,
)
from research.runs import journal
from research.workspaces.services import workspace_create

ASSETS = ("css/app.css", "css/run.css", "vendor/htmx/htmx.min.js", "vendor/htmx-ext-ws/ws.js", "js/run.js")


def _chunk(doc: int, index: int, *, new: bool) -> ChunkRef:
    return ChunkRef(
        chunk_id=f"doc{doc}#{index}", doc_id=f"doc{doc}", title=f"Document {doc}", score=1 / (index + 1), new=new
    )


def _searches(rollout: int, turn: int) -> Iterator[AnyEvent]:
    """Three searches of a turn, then their ten chunks each (only the first search's are new)."""
    calls = [f"r{rollout}t{turn}c{index}" for index in range(3)]
    for call_id in calls:
        yield ToolCalled(
            rollout=rollout, turn=turn, call_id=call_id, tool=SEARCH, query=f"sub-query {call_id}", arguments="{}"
        )
    for index, call_id in enumerate(calls):
        chunks = tuple(_chunk((turn * 7 + index * 3 + k) % 60, k, new=index == 0) for k in range(10))
        yield ToolReturned(rollout=rollout, turn=turn, call_id=call_id, tool=SEARCH, chunks=chunks, tokens=900)


def _ranking(turn: int) -> tuple[RankedDocument, ...]:
    docs = [(turn + k) % 60 for k in range(10)]
    return tuple(
        RankedDocument(
            doc_id=f"doc{d}",
            title=f"Document {d}",
            score=0.03 - k / 1000,
            chunk_ids=(f"doc{d}#0",),
            agreement=1 + k % 4,
        )
        for k, d in enumerate(docs)
    )


def _turn(rollout: int, turn: int, budget: int) -> Iterator[AnyEvent]:
    used = 1_200 * turn
    yield TurnStarted(rollout=rollout, turn=turn)
    yield TurnRecorded(
        rollout=rollout,
        turn=turn,
        prompt_tokens=used,
        completion_tokens=80,
        cached_tokens=None,
        context_tokens=used,
        exact=False,
    )
    yield from _searches(rollout, turn)
    if turn % 3 == 0:
        pruned = (f"doc{turn % 60}#1", f"doc{turn % 60}#2")
        yield ChunksPruned(rollout=rollout, turn=turn, chunk_ids=pruned, freed_tokens=410)
    if used > budget // 2:
        yield BudgetLevelChanged(rollout=rollout, turn=turn, level="soft", used=used, limit=budget)
    yield FusedRankingUpdated(rollout=rollout, turn=turn, documents=_ranking(turn))


def synthetic_events(count: int, *, rollouts: int = 4, budget: int = 32_768) -> list[AnyEvent]:
    """About ``count`` events of a plausible run, ending with every rollout's end and the run's."""
    events: list[AnyEvent] = [RunStarted(question="q", rollouts=rollouts, budget=budget)]
    turn = 0
    while len(events) < count - rollouts - 1:
        turn += 1
        for rollout in range(rollouts):
            events.extend(_turn(rollout, turn, budget))
    events = events[: count - rollouts - 1]
    final = events[-1].documents if isinstance(events[-1], FusedRankingUpdated) else ()
    for rollout in range(rollouts):
        events.append(RolloutFinished(rollout=rollout, turns=turn, reason="completed", documents=final))
    events.append(RunFinished(documents=final, rollouts_ok=rollouts, rollouts_failed=0))
    return events


def _assets() -> dict[str, bytes]:
    contents = {}
    for name in ASSETS:
        path = finders.find(name)
        assert isinstance(path, str), name
        with open(path, "rb") as handle:
            contents[name] = handle.read()
    return contents


async def _socket_times(run_id: int, cookie: str, expected: int) -> dict[str, float]:
    from context1_web.asgi import application

    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    started = time.perf_counter()
    communicator = WebsocketCommunicator(application, f"/ws/runs/{run_id}/?after=0&format=html", headers=headers)
    connected, _ = await communicator.connect(timeout=30)
    assert connected, "the socket refused the benchmark's user"
    await communicator.receive_from(timeout=30)
    first = time.perf_counter() - started
    for _ in range(expected - 1):
        await communicator.receive_from(timeout=30)
    last = time.perf_counter() - started
    await communicator.disconnect()
    return {"first_fragment_ms": round(first * 1000, 1), "all_fragments_ms": round(last * 1000, 1)}


def bench_run_page(*, events: int = 500, repeats: int = 5) -> dict[str, Any]:
    """Page weight and time to first fragment for a stored run of ``events`` events (medians of ``repeats``);
    the channel layer's Redis is started for it when the settings name the embedded one."""
    with tempfile.TemporaryDirectory(prefix="bench-run-page-") as logs, embedded_redis(dict(os.environ), Path(logs)):
        return _measure(events=events, repeats=repeats)


def _measure(*, events: int, repeats: int) -> dict[str, Any]:
    user = User.objects.create_user(f"bench-{uuid.uuid4().hex[:10]}", password=uuid.uuid4().hex)
    workspace = workspace_create(name=f"Run page bench {uuid.uuid4().hex[:6]}", owner=user)
    try:
        corpus = Corpus.objects.create(workspace=workspace, name="Bench", slug="bench")
        run = Run.objects.create(
            workspace=workspace, created_by=user, question="q", rollouts=4, status=RunStatus.RUNNING
        )
        run.corpora.set([corpus])
        stored = journal.events_store(run_id=run.pk, events=synthetic_events(events), attempt=1, guard=Q())
        assert stored is not None
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        url = reverse("run_page", kwargs={"slug": workspace.slug, "run_id": run.pk})
        renders, html = [], b""
        for _ in range(repeats):
            started = time.perf_counter()
            response = client.get(url)
            assert response.status_code == 200, response.status_code
            html = response.content
            renders.append((time.perf_counter() - started) * 1000)
        cookie = f"sessionid={client.cookies['sessionid'].value}"
        with (
            tempfile.TemporaryDirectory(prefix="bench-run-page-") as logs,
            embedded_redis(dict(os.environ), Path(logs)),
        ):
            sockets = [asyncio.run(_socket_times(run.pk, cookie, events)) for _ in range(repeats)]
        return _figures(events, html, renders, sockets)
    finally:
        workspace.delete()
        user.delete()


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[len(ordered) // 2], 1)


def _figures(events: int, html: bytes, renders: list[float], sockets: list[dict[str, float]]) -> dict[str, Any]:
    contents = _assets()
    assets = {name: len(data) for name, data in contents.items()}
    assets_gzip = {name: len(gzip.compress(data)) for name, data in contents.items()}
    return {
        "events": events,
        "html_bytes": len(html),
        "html_gzip_bytes": len(gzip.compress(html)),
        "assets_bytes": assets,
        "assets_total_bytes": sum(assets.values()),
        "assets_total_gzip_bytes": sum(assets_gzip.values()),
        "page_total_bytes": len(html) + sum(assets.values()),
        "page_total_gzip_bytes": len(gzip.compress(html)) + sum(assets_gzip.values()),
        "page_render_ms_median": _median(renders),
        "first_fragment_ms_median": _median([s["first_fragment_ms"] for s in sockets]),
        "all_fragments_ms_median": _median([s["all_fragments_ms"] for s in sockets]),
        "repeats": len(renders),
    }
