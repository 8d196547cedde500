"""``bench_schedules``: N due schedules fired by beat's tick, against a baseline in the same run.

A throwaway workspace with a small corpus (a few demo files), N investigations each with a schedule that is
due, ``busy`` of them with a run still queued (their fire must skip), four readers with e-mail addresses. Two
ticks run at once, in two threads with their own database connections, as two beat processes would; every
started run is enqueued on the real broker (the embedded Redis when REDIS_URL is unset). Then every started run
is executed here through the worker's code path with the scripted backend (search the question once, complete),
its answer written, and its digest made and e-mailed (Django's locmem backend: nothing leaves the machine).

Reported: ``fired`` (runs started), ``skipped``, ``duplicated`` (runs beyond one per schedule and due time:
must be 0), ``seconds_to_enqueue_all`` (both ticks, wall), ``digests_made``, ``digests_sent`` (digests whose
readers were notified), ``emails_sent``. Baseline: the same number of runs started one by one with
``run_start`` (what N clicks of "Run again" cost), so ``tick_vs_baseline`` prices the schedule machinery (claims,
skip checks, fire rows) over starting the runs themselves. Enqueued messages of runs the bench has executed and
deleted find nothing to do if a worker ever reads them.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import time as clock
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone

from research.corpora import ingestion
from research.corpora import services as corpora
from research.demo.files import demo_corpus_files
from research.investigations import services as investigations
from research.models import (
    TERMINAL_RUN_STATUSES,
    Investigation,
    Membership,
    Role,
    Run,
    RunStatus,
    Schedule,
    ScheduleFire,
    UploadFile,
)
from research.runs import services as runs
from research.runs.execution import run_execute
from research.runs.trial import in_process_events, trial_clean, trial_workspace
from research.schedules import digests, firing
from research.schedules import services as schedules

QUESTION = "What does Halvorix charge for its Standard plan?"
READERS = 3  # besides the owner


def _corpus(owner: Membership, files: int) -> Any:
    corpus = corpora.corpus_create(actor=owner, name="Schedule benchmark corpus")
    chosen = demo_corpus_files()[:files]
    incoming = [corpora.IncomingFile(name=path.name, chunks=[path.read_bytes()]) for path in chosen]
    upload = corpora.upload_create(actor=owner, corpus=corpus, files=incoming, enqueue=False)
    for item in UploadFile.objects.filter(upload=upload):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    return corpus


def _readers(owner: Membership) -> None:
    users = get_user_model()
    owner.user.email = "owner@bench.invalid"
    owner.user.save(update_fields=["email"])
    for number in range(READERS):
        name = f"bench-reader-{owner.workspace_id}-{number}"
        user = users.objects.create_user(username=name, email=f"{name}@bench.invalid")
        Membership.objects.create(workspace=owner.workspace, user=user, role=Role.VIEWER)


def _investigations(owner: Membership, corpus: Any, count: int, busy: int) -> list[Schedule]:
    """``count`` saved investigations, each scheduled and made due; ``busy`` of them with a run still queued."""
    made: list[Schedule] = []
    for number in range(count):
        with transaction.atomic():
            run = runs.run_start(actor=owner, question=QUESTION, corpora=[corpus], rollouts=1, enqueue=False)
            Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED if number >= busy else RunStatus.QUEUED)
            investigation = investigations.investigation_create(actor=owner, run=run, title=f"Watch {number + 1}")
            schedule = schedules.schedule_save(
                actor=owner, investigation=investigation, frequency="daily", time_of_day=clock(8)
            )
            made.append(schedule)
    due = timezone.now() - timedelta(seconds=1)
    Schedule.objects.filter(pk__in=[s.pk for s in made]).update(next_run_at=due)
    return made


def _ticks(now: Any) -> tuple[list[firing.Tick], float]:
    """Two ticks at once, as two beat processes would run them; their wall time."""
    results: list[firing.Tick] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def tick() -> None:
        try:
            barrier.wait(timeout=30)
            results.append(firing.schedules_fire(now=now))
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    seconds = time.perf_counter() - started
    if errors:
        raise errors[0]
    return results, seconds


def _baseline(owner: Membership, corpus: Any, count: int) -> float:
    """``count`` runs started one by one with ``run_start``, enqueued after each commit, as a member would."""
    started = time.perf_counter()
    made = [runs.run_start(actor=owner, question=QUESTION, corpora=[corpus], rollouts=1) for _ in range(count)]
    seconds = time.perf_counter() - started
    Run.objects.filter(pk__in=[run.pk for run in made]).update(status=RunStatus.CANCELLED)  # never run
    return seconds


def _execute(run_ids: list[int]) -> dict[str, int]:
    """Each started run through the worker's code path with the scripted backend, then its digest and e-mails."""
    made = sent = 0
    with override_settings(INFERENCE_BACKEND="scripted"):
        for run_id in run_ids:
            run_execute(run_id=run_id)
            digest = digests.digest_make(run_id=run_id)
            if digest is not None:
                made += 1
                sent += int(digest.notified)
                digests.digest_email(digest=digest)
    return {"digests_made": made, "digests_sent": sent}


def bench_schedules(*, schedules_count: int, busy: int, files: int) -> dict[str, Any]:
    # the per-member and per-workspace run limits are lifted: this measures the firing machinery, not the limits
    unlimited = {"RUNS_ACTIVE_PER_USER": 10**6, "RUNS_ACTIVE_PER_WORKSPACE": 10**6}
    email = "django.core.mail.backends.locmem.EmailBackend"
    with in_process_events(), override_settings(EMAIL_BACKEND=email, **unlimited):
        mail.outbox = []
        owner = trial_workspace("Schedule benchmark")
        try:
            corpus = _corpus(owner, files)
            _readers(owner)
            made = _investigations(owner, corpus, schedules_count, busy)
            baseline = _baseline(owner, corpus, schedules_count - busy)
            ticks, seconds = _ticks(timezone.now())
            started = [run_id for tick in ticks for run_id in tick.started]
            per_schedule = Counter(
                Run.objects.filter(schedule__in=made)
                .exclude(status=RunStatus.CANCELLED)
                .values_list("schedule_id", flat=True)
            )
            fires = Counter(ScheduleFire.objects.filter(schedule__in=made).values_list("schedule_id", "due_at"))
            executed = _execute(started)
            failed = Run.objects.filter(pk__in=started).exclude(status=RunStatus.FINISHED).count()
            return {
                "schedules": schedules_count,
                "busy": busy,
                "fired": len(started),
                "skipped": sum(len(tick.skipped) for tick in ticks),
                "lost_to_the_other_tick": sum(tick.lost for tick in ticks),
                "duplicated": sum(n - 1 for n in per_schedule.values() if n > 1)
                + sum(n - 1 for n in fires.values() if n > 1),
                "seconds_to_enqueue_all": round(seconds, 4),
                "baseline": f"{schedules_count - busy} runs started one by one with run_start (enqueued after commit)",
                "baseline_seconds": round(baseline, 4),
                "tick_vs_baseline": round(seconds / baseline, 2) if baseline else None,
                "runs_not_finished": failed,
                **executed,
                "emails_sent": len(mail.outbox),
                "readers_per_investigation": READERS + 1,
                "investigations_left": Investigation.objects.filter(workspace=owner.workspace).count(),
            }
        finally:
            Run.objects.filter(workspace=owner.workspace).exclude(status__in=TERMINAL_RUN_STATUSES).update(
                status=RunStatus.CANCELLED
            )
            trial_clean(owner)
            get_user_model().objects.filter(username__startswith=f"bench-reader-{owner.workspace_id}-").delete()
