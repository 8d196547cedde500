"""Write-side operations on runs: start (validated, enqueued after commit), cancel, enqueue."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from research.models import Corpus, Membership, Run, RunStatus, RunTemplate
from research.runs.estimate import RunEstimate, run_estimate
from research.runs.journal import CANCEL_REQUESTED, RUN_CANCELLED, event_append

RUN_TASK = "research.tasks.run_execute"  # routed to the `runs` queue (worker/queues.py)

ROLLOUTS = (1, 8)
BUDGET = (4_096, 131_072)
MAX_TURNS = (1, 64)
DEFAULT_ROLLOUTS, DEFAULT_BUDGET, DEFAULT_MAX_TURNS = 4, 32_768, 16
QUESTION_MAX = 4_000


def run_enqueue(run_id: int) -> None:
    """Send the run's task by name (no import of the worker side from the web side)."""
    from context1_web.celery import app

    app.send_task(RUN_TASK, args=(run_id,))


def _check_range(errors: dict[str, str], field: str, value: int, bounds: tuple[int, int], label: str) -> None:
    if not bounds[0] <= value <= bounds[1]:
        errors[field] = f"{label} must be between {bounds[0]:,} and {bounds[1]:,}."


def run_validate(
    *, workspace_id: int, question: str, corpora: Sequence[Corpus], template: str, rollouts: int, budget: int,
    max_turns: int,
) -> dict[str, str]:  # fmt: skip
    """Field name -> what is wrong with it (empty when the run can start)."""
    errors: dict[str, str] = {}
    if not question.strip():
        errors["question"] = "Ask a question."
    elif len(question) > QUESTION_MAX:
        errors["question"] = f"Keep the question under {QUESTION_MAX:,} characters."
    if not corpora:
        errors["corpora"] = "Choose at least one corpus."
    elif any(corpus.workspace_id != workspace_id for corpus in corpora):
        errors["corpora"] = "Choose corpora of this workspace."
    if template not in RunTemplate.values:
        errors["template"] = f"Unknown template {template!r}."
    try:
        run_cost(rollouts=rollouts, budget=budget, max_turns=max_turns)
    except ValidationError as error:
        errors.update({field: messages[0] for field, messages in error.message_dict.items()})
    return errors


def run_start(
    *, actor: Membership, question: str, corpora: Sequence[Corpus], template: str = RunTemplate.QUESTION,
    rollouts: int = DEFAULT_ROLLOUTS, budget: int = DEFAULT_BUDGET, max_turns: int = DEFAULT_MAX_TURNS,
) -> Run:  # fmt: skip
    """Create a queued run in the actor's workspace and enqueue it on the `runs` queue once committed."""
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can start runs.")
    errors = run_validate(workspace_id=actor.workspace_id, question=question, corpora=corpora, template=template,
                          rollouts=rollouts, budget=budget, max_turns=max_turns)  # fmt: skip
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        run = Run.objects.create(
            workspace_id=actor.workspace_id, created_by=actor.user, question=question.strip(), template=template,
            rollouts=rollouts, budget=budget, max_turns=max_turns, enqueued_at=timezone.now(),
        )  # fmt: skip
        run.corpora.set(corpora)
        transaction.on_commit(lambda: run_enqueue(run.pk))
    return run


def run_cost(*, rollouts: int, budget: int, max_turns: int) -> RunEstimate:
    """The estimate the form shows before starting (search results sized by this deployment's settings)."""
    errors: dict[str, str] = {}
    _check_range(errors, "rollouts", rollouts, ROLLOUTS, "Rollouts")
    _check_range(errors, "budget", budget, BUDGET, "The token budget")
    _check_range(errors, "max_turns", max_turns, MAX_TURNS, "Maximum turns")
    if errors:
        raise ValidationError(errors)
    return run_estimate(rollouts=rollouts, budget=budget, max_turns=max_turns,
                        search_tokens=settings.SEARCH_BUDGET_TOKENS)  # fmt: skip


def run_cancel(*, actor: Membership, run: Run, reason: str = "") -> Run:
    """Stop a run: a queued one at once; a running one at its next turn boundary (its worker polls for this)."""
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can cancel runs.")
    if run.workspace_id != actor.workspace_id:
        raise PermissionDenied("That run is not in your workspace.")
    reason = reason.strip() or f"cancelled by {actor.user.get_username()}"
    payload = {"type": RUN_CANCELLED, "reason": reason}
    done = event_append(
        run_id=run.pk, kind=RUN_CANCELLED, payload=payload, attempt=max(run.attempts, 1),
        guard=Q(status=RunStatus.QUEUED), status=RunStatus.CANCELLED, status_reason=reason, cancel_reason=reason,
        cancel_requested=True, finished_at=timezone.now(),
    )  # fmt: skip
    if done is None:
        payload = {"type": CANCEL_REQUESTED, "reason": reason, "by": actor.user.get_username()}
        done = event_append(
            run_id=run.pk, kind=CANCEL_REQUESTED, payload=payload, attempt=max(run.attempts, 1),
            guard=Q(status=RunStatus.RUNNING, cancel_requested=False), cancel_requested=True, cancel_reason=reason,
        )  # fmt: skip
    run.refresh_from_db()
    if done is None and run.status != RunStatus.RUNNING:
        raise ValidationError(f"The run has already {run.status}.")
    return run  # (a second cancel of a running run changes nothing)
