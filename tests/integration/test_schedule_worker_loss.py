"""A scheduled run whose worker is killed (SIGKILL): real Celery beat fires the due schedule, the worker dies
mid-run, the run machinery restarts it on a new worker, and when it finishes its digest is made and e-mailed
(the file backend: the e-mail is a file), once."""

from __future__ import annotations

import signal
from datetime import time, timedelta
from email import message_from_bytes
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from research.corpora import services
from research.investigations import services as investigations
from research.models import Digest, Membership, Notification, Run, RunEvent, RunStatus, Schedule, ScheduleFire
from research.runs import services as runs
from research.schedules import services as schedules
from tests.integration.test_run_worker_loss import SLOW_MODEL_READY
from tests.research.runs.conftest import FILES, QUESTION
from tests.support import processes
from tests.support.corpora import corpus_indexed

pytestmark = pytest.mark.services


def test_a_scheduled_run_survives_its_worker_and_ends_in_one_digest(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path
) -> None:
    mail_dir = tmp_path / "mail"
    env = {
        **process_env,
        "RUN_LEASE_SECONDS": "3",
        "RUN_SWEEP_SECONDS": "1",
        "SCHEDULE_TICK_SECONDS": "5",
        "WORKER_CONCURRENCY": "2",
        "EMAIL_FILE_PATH": str(mail_dir),
        "SITE_URL": "http://research.test",
        "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install",
    }
    owner = Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(make_user()))
    User.objects.filter(pk=owner.user_id).update(email="owner@example.com")
    corpus = services.corpus_create(actor=owner, name="Market")
    first_run = runs.run_start(actor=owner, question=QUESTION, corpora=[corpus], rollouts=2, max_turns=8, enqueue=False)
    Run.objects.filter(pk=first_run.pk).update(status=RunStatus.FINISHED)  # an earlier run, saved
    investigation = investigations.investigation_create(actor=owner, run=first_run, title="Halyard watch")
    schedule = schedules.schedule_save(actor=owner, investigation=investigation, frequency="daily", time_of_day=time(8))
    logs = {name: tmp_path / f"{name}.log" for name in ("first", "second", "beat")}
    first = processes.worker(env, logs["first"], "first", ready=SLOW_MODEL_READY)
    beat = second = None
    try:
        services.upload_create(
            actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in FILES.items()]
        )
        processes.wait_for(
            lambda: corpus_indexed(corpus, len(FILES)), timeout=120, what="ingestion", process=first, log=logs["first"]
        )
        Schedule.objects.filter(pk=schedule.pk).update(next_run_at=timezone.now() - timedelta(seconds=1))  # due
        beat = processes.start(processes.python("-m", "worker", "beat"), env=env, log=logs["beat"])
        processes.wait_for(
            lambda: RunEvent.objects.filter(run__schedule=schedule, type="turn_started").count() >= 2,
            timeout=90,
            what="the scheduled run's first turns",
            process=first,
            log=logs["first"],
        )
        run = Run.objects.get(schedule=schedule)
        processes.stop(first, sig=signal.SIGKILL)
        assert Run.objects.get(pk=run.pk).status == RunStatus.RUNNING, "the run ended before the kill"

        second = processes.worker(env, logs["second"], "second", ready=SLOW_MODEL_READY)
        processes.wait_for(
            lambda: Digest.objects.filter(run=run).exclude(emailed_to=[]).exists(),
            timeout=150,
            what="the restarted run's digest e-mail",
            process=second,
            log=logs["second"],
        )
    finally:
        processes.stop_all(first, second, beat)

    run.refresh_from_db()
    assert run.status == RunStatus.FINISHED, (run.status_reason, processes.tail(logs["second"]))
    assert run.attempts == 2
    assert Run.objects.filter(schedule=schedule).count() == 1  # the next tick found the run still going: no other
    assert ScheduleFire.objects.filter(schedule=schedule, run=run).count() == 1
    digest = Digest.objects.get(run=run)
    assert digest.previous_run_id == first_run.pk
    assert digest.notified
    assert digest.emailed_to == [owner.user_id]
    assert Notification.objects.filter(digest=digest, user=owner.user).count() == 1
    (written,) = list(mail_dir.glob("*.log"))
    message = message_from_bytes(written.read_bytes())
    assert message["To"] == "owner@example.com"
    assert message["Subject"].startswith("Halyard watch:")
    assert message["List-Unsubscribe"].strip().startswith("<http://research.test/unsubscribe/")  # folded header
