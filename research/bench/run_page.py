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
import time
import uuid
from collections.abc import Iterator
from typing import Any

from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from research.models import Corpus, Run, RunStatus
from research.protocol.events import from_dict
from research.runs import journal
from research.workspaces.services import workspace_create

ASSETS = ("css/app.css", "css/run.css", "vendor/htmx/htmx.min.js", "vendor/htmx-ext-ws/ws.js", "js/run.js")


def _chunk(doc: int, index: int, *, new: bool) -> dict[str, Any]:
    title, score = f"Document {doc}", 1 / (index + 1)
    return {"chunk_id": f"doc{doc}#{index}", "doc_id": f"doc{doc}", "title": title, "score": score, "new": new}


def _turn(rollout: int, turn: int, budget: int) -> Iterator[tuple[str, dict[str, Any]]]:
    base = {"rollout": rollout, "turn": turn}
    yield "turn_started", base
    yield "turn_recorded", {**base, "prompt_tokens": 1_200 * turn, "completion_tokens": 80, "cached_tokens": None,
                            "context_tokens": 1_200 * turn, "exact": False}  # fmt: skip
    calls = [f"r{rollout}t{turn}c{index}" for index in range(3)]
    for call_id in calls:
        yield "tool_called", {**base, "call_id": call_id, "tool": "search_corpus", "query": f"sub-query {call_id}",
                              "arguments": "{}"}  # fmt: skip
    for index, call_id in enumerate(calls):
        chunks = [_chunk((turn * 7 + index * 3 + k) % 60, k, new=index == 0) for k in range(10)]
        yield "tool_returned", {**base, "call_id": call_id, "tool": "search_corpus", "chunks": chunks, "tokens": 900,
                                "omitted": 0, "error": None}  # fmt: skip
    if turn % 3 == 0:
        yield "chunks_pruned", {**base, "chunk_ids": [f"doc{turn % 60}#1", f"doc{turn % 60}#2"], "freed_tokens": 410}
    if turn * 1_200 > budget // 2:
        yield "budget_level_changed", {**base, "level": "soft", "used": 1_200 * turn, "limit": budget}
    documents = [{"doc_id": f"doc{(turn + k) % 60}", "title": f"Document {(turn + k) % 60}", "score": 0.03 - k / 1000,
                  "chunk_ids": [f"doc{(turn + k) % 60}#0"], "agreement": 1 + (k % 4)} for k in range(10)]  # fmt: skip
    yield "fused_ranking_updated", {**base, "documents": documents}


def synthetic_events(count: int, *, rollouts: int = 4, budget: int = 32_768) -> list[tuple[str, dict[str, Any]]]:
    """About ``count`` events of a plausible run, ending with every rollout's end and the run's."""
    items: list[tuple[str, dict[str, Any]]] = [
        ("run_started", {"question": "q", "rollouts": rollouts, "budget": budget})
    ]
    turn = 0
    while len(items) < count - rollouts - 1:
        turn += 1
        for rollout in range(rollouts):
            items.extend(_turn(rollout, turn, budget))
    items = items[: count - rollouts - 1]
    final = items[-1][1].get("documents", []) if items[-1][0] == "fused_ranking_updated" else []
    for rollout in range(rollouts):
        items.append(("rollout_finished", {"rollout": rollout, "turns": turn, "reason": "completed", "documents": final,
                                           "error": None}))  # fmt: skip
    items.append(("run_finished", {"documents": final, "rollouts_ok": rollouts, "rollouts_failed": 0}))
    return [(kind, {"type": kind, **payload}) for kind, payload in items]


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
    """Page weight and time to first fragment for a stored run of ``events`` events (medians of ``repeats``)."""
    user = User.objects.create_user(f"bench-{uuid.uuid4().hex[:10]}", password=uuid.uuid4().hex)
    workspace = workspace_create(name=f"Run page bench {uuid.uuid4().hex[:6]}", owner=user)
    try:
        corpus = Corpus.objects.create(workspace=workspace, name="Bench", slug="bench")
        run = Run.objects.create(workspace=workspace, created_by=user, question="q", rollouts=4,
                                 status=RunStatus.RUNNING)  # fmt: skip
        run.corpora.set([corpus])
        typed = [from_dict(payload) for _, payload in synthetic_events(events)]
        assert journal.events_store(run_id=run.pk, events=typed, attempt=1, guard=Q()) is not None
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
        "html_bytes": len(html), "html_gzip_bytes": len(gzip.compress(html)),
        "assets_bytes": assets, "assets_total_bytes": sum(assets.values()),
        "assets_total_gzip_bytes": sum(assets_gzip.values()),
        "page_total_bytes": len(html) + sum(assets.values()),
        "page_total_gzip_bytes": len(gzip.compress(html)) + sum(assets_gzip.values()),
        "page_render_ms_median": _median(renders),
        "first_fragment_ms_median": _median([s["first_fragment_ms"] for s in sockets]),
        "all_fragments_ms_median": _median([s["all_fragments_ms"] for s in sockets]),
        "repeats": len(renders),
    }  # fmt: skip
