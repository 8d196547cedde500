"""A run executed by the worker-side service: the heuristic over a real index, events stored in order, the result."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import pytest
from django.db import connections

from research.harness.messages import Message, ModelTurn, ToolSpec
from research.harness.run import run_research
from research.inference.scripted import ScriptedBackend, call, turn
from research.models import Run, RunEvent, RunStatus
from research.protocol.events import from_dict
from research.runs import agent
from research.runs import services as runs
from research.runs.execution import run_execute
from tests.research.runs.conftest import at_once, in_thread, ingest, seqs, types

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_runs_the_harness_and_stores_every_event_in_order(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus], rollouts=2)
    assert run_execute(run_id=run.pk) == "finished"
    run.refresh_from_db()
    assert run.status == RunStatus.FINISHED
    assert run.attempts == 1
    assert run.lease_owner == ""
    assert run.claimed_until is None
    assert run.finished_at is not None
    assert run.started_at is not None
    numbers = seqs(run)
    assert numbers == list(range(1, len(numbers) + 1))
    assert run.last_seq == len(numbers)
    kinds = types(run)
    assert kinds[0] == "run_started"
    assert kinds[-3:] == ["run_finished", "writing_started", "report_written"]
    assert {"turn_started", "tool_called", "tool_returned", "fused_ranking_updated"} <= set(kinds)
    for event in RunEvent.objects.filter(run=run):
        assert from_dict(event.payload).type == event.type  # payloads are the harness's own dicts
    assert run.result
    assert run.result[0]["doc_id"]
    assert any(doc["title"] for doc in run.result)
    assert run.total_tokens > 0


def test_a_run_over_several_corpora_searches_them_all(owner, corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    other = ingest(owner, "People", {"team.txt": b"Dana Okonkwo joined Halvorix in 2024 from Stellique Data."})
    run = start_run([corpus, other], rollouts=1)
    assert run_execute(run_id=run.pk) == "finished"
    returned = RunEvent.objects.filter(run=run, type="tool_returned")
    titles = {chunk["title"] for event in returned for chunk in event.payload["chunks"]}
    assert "team" in titles
    assert "press" in titles


def test_a_second_execution_of_a_finished_run_does_nothing(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus], rollouts=1)
    assert run_execute(run_id=run.pk) == "finished"
    count = RunEvent.objects.filter(run=run).count()
    assert run_execute(run_id=run.pk) == "skipped"
    assert RunEvent.objects.filter(run=run).count() == count


def test_the_runs_thread_holds_no_database_connection_while_the_harness_runs(  # type: ignore[no-untyped-def]
    corpus, start_run, monkeypatch
) -> None:
    """Its writes after the run (the report, how it ended) open a fresh connection, not one that the database may
    have dropped meanwhile (tests/integration/test_database_outage.py)."""
    thread = connections["default"]  # this thread's, which runs the run (the harness's loop sees its own)
    held: list[bool] = []

    async def observed(**kwargs):  # type: ignore[no-untyped-def]
        held.append(thread.connection is not None)
        return await run_research(**kwargs)

    monkeypatch.setattr(agent, "run_research", observed)
    run = start_run([corpus], rollouts=1)
    assert run_execute(run_id=run.pk) == "finished"
    assert held == [False]


def test_two_deliveries_at_once_run_it_once(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus], rollouts=2)
    outcomes = at_once(run_execute, 2, run_id=run.pk)
    assert sorted(outcomes) == ["finished", "skipped"]
    assert types(run).count("run_started") == 1
    numbers = seqs(run)
    assert numbers == list(range(1, len(numbers) + 1))
    assert Run.objects.get(pk=run.pk).attempts == 1


def _endless(messages: Sequence[Message], tools: Sequence[ToolSpec]) -> ModelTurn:
    """A model that never finishes on its own: a new search every turn."""
    return turn(call("search_corpus", {"query": f"Halyard {len(messages)}"}))


def test_cancel_stops_a_running_run_at_the_next_turn_and_records_why(  # type: ignore[no-untyped-def]
    owner, corpus, start_run, monkeypatch
) -> None:
    monkeypatch.setattr(agent, "backend_factory", lambda **_: lambda i: ScriptedBackend(_endless, latency=0.1))
    run = start_run([corpus], rollouts=2, max_turns=64)
    outcome: list[str] = []
    worker = threading.Thread(target=lambda: outcome.append(in_thread(run_execute, run_id=run.pk)))
    worker.start()
    try:
        _wait(lambda: RunEvent.objects.filter(run=run, type="turn_started").count() >= 4, "turns")
        runs.run_cancel(actor=owner, run=Run.objects.get(pk=run.pk), reason="wrong question")
    finally:
        worker.join(timeout=60)
    assert outcome == ["cancelled"]
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED
    assert run.status_reason == "wrong question"
    kinds = types(run)
    assert kinds.index("cancel_requested") < kinds.index("run_cancelled")
    assert kinds[-1] == "run_cancelled"
    assert kinds.count("turn_started") < 2 * 64
    reasons = {e.payload["reason"] for e in RunEvent.objects.filter(run=run, type="rollout_finished")}
    assert reasons == {"cancelled"}
    # The stored end carries the member's reason (the page shows it live) and what the rollouts had found.
    ended = RunEvent.objects.get(run=run, type="run_cancelled").payload
    assert ended["reason"] == "wrong question"
    assert ended["documents"]
    assert run.result == ended["documents"]


def test_a_broken_backend_fails_the_run_with_the_reason(corpus, start_run, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def broken(**_: object) -> object:
        raise RuntimeError("no such model server")

    monkeypatch.setattr(agent, "backend_factory", broken)
    run = start_run([corpus], rollouts=1)
    assert run_execute(run_id=run.pk) == "failed"
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "no such model server" in run.status_reason
    assert types(run)[-1] == "run_failed"


def _wait(condition, what: str, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout:.0f}s")
