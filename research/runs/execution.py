"""Executing a run in a worker: claim it, run the harness with the journal sink, record how it ended."""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from research.models import Run, RunStatus
from research.platform.queue import task_send
from research.protocol.events import RunFailed
from research.reporting.services import report_write
from research.runs import dispatch
from research.runs.agent import run_harness
from research.runs.lease import Claim, run_claim
from research.runs.services import RUN_TASK
from research.runs.signals import run_ended
from research.runs.sink import JournalError, JournalSink

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    status: RunStatus
    reason: str = ""
    documents: tuple[dict[str, Any], ...] = ()


def run_execute(*, run_id: int) -> str:
    """Run the research job of ``run_id`` if this call can claim it; returns how it ended, or ``skipped``.

    A duplicate or redelivered message finds the run claimed (or done) and is skipped. If the lease is
    lost mid-run (this worker was presumed dead), the run stops at its next turn boundary and this
    attempt writes nothing more: the attempt that took over owns the run.
    """
    claim = run_claim(run_id=run_id)
    if claim is None:
        logger.info("run %s: not claimable (running elsewhere, finished, or out of attempts); skipped", run_id)
        return "skipped"
    return _execute(claim)


def run_dispatch(*, sent_for: int | None = None) -> str:
    """What a message on the `runs` queue does: run the waiting run that is fairest to take now
    (research/runs/dispatch.py), which may be another workspace's than the run it was ``sent_for``; then, if runs
    still wait, send the message that lets the next one start. ``idle`` when none may start now."""
    claim = dispatch.claim_next()
    if claim is None:
        logger.info("runs: nothing may start now (message sent for run %s)", sent_for)
        return "idle"
    if sent_for is not None and claim.run_id != sent_for:
        logger.info("runs: took run %s before run %s (fair turns between workspaces)", claim.run_id, sent_for)
    try:
        return _execute(claim)
    finally:
        if dispatch.waiting():
            task_send(RUN_TASK, None)


def _execute(claim: Claim) -> str:
    run_id = claim.run_id
    run = Run.objects.get(pk=run_id)
    sink = JournalSink(claim).start()
    outcome = _run(run, sink)
    try:
        sink.close()
    except JournalError as error:
        outcome = Outcome(RunStatus.FAILED, str(error))
    if sink.lost.is_set():
        return "lost"
    return run_complete(claim=claim, outcome=outcome, tokens=sink.tokens)


def _run(run: Run, sink: JournalSink) -> Outcome:
    try:
        result = run_harness(run, sink=sink, cancelled=sink.cancelled, cancel_reason=sink.cancel_reason)
    except Exception as error:  # a bug or a broken configuration: the run fails visibly, with the reason
        logger.exception("run %s failed", run.pk)
        reason = f"{type(error).__name__}: {error}"
        sink.record(RunFailed(error=reason))
        return Outcome(RunStatus.FAILED, reason)
    documents = tuple(dataclasses.asdict(document) for document in result.documents)
    if result.status == "finished":
        report_write(run, result.documents, [outcome.documents for outcome in result.rollouts], sink.record)
        return Outcome(RunStatus.FINISHED, "", documents)
    if result.status == "cancelled":
        return Outcome(RunStatus.CANCELLED, sink.cancel_reason(), documents)
    return Outcome(RunStatus.FAILED, result.error or "failed")


def run_complete(*, claim: Claim, outcome: Outcome, tokens: int) -> str:
    """Record how the attempt ended, if it still holds the run; a cancel keeps the member's reason."""
    reason = outcome.reason
    if outcome.status == RunStatus.CANCELLED:
        reason = Run.objects.values_list("cancel_reason", flat=True).get(pk=claim.run_id) or reason
    updated = Run.objects.filter(claim.guard, pk=claim.run_id).update(
        status=outcome.status,
        status_reason=reason,
        result=list(outcome.documents),
        total_tokens=tokens,
        finished_at=timezone.now(),
        claimed_until=None,
        lease_owner="",
    )
    if updated != 1:
        logger.warning(
            "run %s: attempt %s no longer holds the run; its end is not recorded", claim.run_id, claim.attempt
        )
        return "lost"
    logger.info("run %s: %s (attempt %s)", claim.run_id, outcome.status, claim.attempt)
    run_ended.send(sender=Run, run_id=claim.run_id, status=str(outcome.status))  # a scheduled run's digest, ...
    return str(outcome.status)
