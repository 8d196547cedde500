"""A worker killed mid-run (SIGKILL): its lease expires, the sweeper (real Celery beat) re-queues the run, a
new worker restarts it visibly and finishes it, with every event kept and numbered without gaps or repeats."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from research.corpora import services
from research.models import Membership, Run, RunEvent, RunStatus
from research.runs import services as runs
from tests.research.runs.conftest import FILES, QUESTION
from tests.support import processes
from tests.support.corpora import corpus_indexed

pytestmark = pytest.mark.services


SLOW_MODEL_READY = "warm-up tests.support.slow_model.install done"


def test_a_run_whose_worker_is_killed_is_restarted_by_a_new_worker_and_finishes(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path
) -> None:
    env = {
        **process_env,
        "RUN_LEASE_SECONDS": "3",
        "RUN_SWEEP_SECONDS": "1",
        "WORKER_CONCURRENCY": "2",
        "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install",
    }
    owner = Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(make_user()))
    corpus = services.corpus_create(actor=owner, name="Market")
    logs = {name: tmp_path / f"{name}.log" for name in ("first", "second", "beat")}
    beat = processes.start(processes.python("-m", "worker", "beat"), env=env, log=logs["beat"])
    first = processes.worker(env, logs["first"], "first", ready=SLOW_MODEL_READY)
    second = None
    try:
        services.upload_create(
            actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in FILES.items()]
        )
        processes.wait_for(
            lambda: corpus_indexed(corpus, len(FILES)), timeout=120, what="ingestion", process=first, log=logs["first"]
        )
        run = runs.run_start(actor=owner, question=QUESTION, corpora=[corpus], rollouts=2, max_turns=8)
        processes.wait_for(
            lambda: RunEvent.objects.filter(run=run, type="turn_started").count() >= 2,
            timeout=60,
            what="the run's first turns",
            process=first,
            log=logs["first"],
        )
        processes.stop(first, sig=signal.SIGKILL)
        assert not RunEvent.objects.filter(run=run, type="run_finished").exists(), "the run ended before the kill"
        assert Run.objects.get(pk=run.pk).status == RunStatus.RUNNING

        second = processes.worker(env, logs["second"], "second", ready=SLOW_MODEL_READY)
        processes.wait_for(
            lambda: Run.objects.get(pk=run.pk).done,
            timeout=120,
            what="the restarted run",
            process=second,
            log=logs["second"],
        )
    finally:
        processes.stop_all(first, second, beat)

    run.refresh_from_db()
    assert run.status == RunStatus.FINISHED, (run.status_reason, processes.tail(logs["second"]))
    assert run.attempts == 2
    assert run.result
    events = list(RunEvent.objects.filter(run=run).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1)) == list(range(1, run.last_seq + 1))
    kinds = [e.type for e in events]
    assert kinds.count("run_requeued") == 1
    assert kinds.count("run_restarted") == 1
    restart = kinds.index("run_restarted")
    assert kinds.index("run_requeued") < restart
    first_attempt, second_attempt = events[:restart], events[restart + 1 :]
    assert first_attempt[0].type == "run_started"
    assert {e.attempt for e in first_attempt if e.type != "run_requeued"} == {1}
    assert "run_finished" not in {e.type for e in first_attempt}
    assert events[restart].payload["superseded_through"] == events[restart - 1].seq
    assert {e.attempt for e in second_attempt} == {2}
    assert second_attempt[0].type == "run_started"
    assert [e.type for e in second_attempt[-3:]] == ["run_finished", "writing_started", "report_written"]
