"""Write-side operations on runs: start (validated, enqueued after commit), cancel, enqueue."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from research.models import Corpus, Membership, Run, RunStatus, RunTemplate
from research.platform.composition import web_offered, writer_choices
from research.platform.queue import task_send
from research.protocol.events import CancelRequested, RunCancelled
from research.protocol.run_options import RunOptions
from research.reporting.kinds import KINDS, kind_of
from research.runs import limits
from research.runs.admission import run_admit
from research.runs.estimate import RunEstimate, run_estimate
from research.runs.journal import StoredEvent, event_append
from research.web_sources.services import web_corpus
from research.writing.company import MAX_ASPECTS

RUN_TASK = "research.tasks.run_execute"  # routed to the `runs` queue (worker/queues.py)


def run_enqueue(run_id: int) -> None:
    """Send the run's task by name (no import of the worker side from the web side)."""
    task_send(RUN_TASK, run_id)


SUBJECT_MAX = 200


def subject_error(template: str, company: str) -> str | None:
    """What is wrong with a report's company (None for a free question, which has none)."""
    if template not in KINDS or not kind_of(template).about_company:
        return None
    if not company.strip():
        return "Name the company the report is about."
    if len(company.strip()) > SUBJECT_MAX:
        return f"Keep the company's name within {SUBJECT_MAX} characters."
    return None


def question_error(question: str) -> str | None:
    """What is wrong with a free question (a report's question is written from its company)."""
    if not question.strip():
        return "Ask a question."
    if len(question) > limits.QUESTION_MAX:
        return f"Keep the question within {limits.QUESTION_MAX:,} characters (this one has {len(question):,})."
    return None


def run_validate(
    *,
    workspace_id: int,
    question: str,
    corpora: Sequence[Corpus],
    template: str,
    rollouts: int,
    budget: int,
    max_turns: int,
    company: str = "",
) -> dict[str, str]:
    """Field name -> what is wrong with it (empty when the run can start)."""
    errors: dict[str, str] = {}
    if (company_wrong := subject_error(template, company)) is not None:
        errors["company"] = company_wrong
    asks_question = template in KINDS and not kind_of(template).about_company
    if asks_question and (question_wrong := question_error(question)) is not None:
        errors["question"] = question_wrong
    if not corpora:
        errors["corpora"] = "Choose at least one corpus."
    elif any(corpus.workspace_id != workspace_id for corpus in corpora):
        errors["corpora"] = "Choose corpora of this workspace."
    if template not in KINDS:
        errors["template"] = f"Unknown template {template!r}."
    try:
        run_cost(rollouts=rollouts, budget=budget, max_turns=max_turns)
    except ValidationError as error:
        errors.update({field: messages[0] for field, messages in error.message_dict.items()})
    return errors


def run_start(
    *,
    actor: Membership,
    question: str,
    corpora: Sequence[Corpus],
    template: str = RunTemplate.QUESTION,
    rollouts: int = limits.ROLLOUTS.default,
    budget: int = limits.BUDGET.default,
    max_turns: int = limits.MAX_TURNS.default,
    company: str = "",
    aspects: Sequence[str] = (),
    criteria: Sequence[Mapping[str, Any]] | None = None,
    writer: str = "",
    web: bool = False,
    enqueue: bool = True,
    admit: bool = True,
    idempotency_key: str = "",
) -> Run:
    """Create a queued run in the actor's workspace and enqueue it on the `runs` queue once committed (unless
    ``enqueue`` is false: the command line executes it in its own process).

    A report (``template`` other than ``question``) is about ``company``: its rollouts search one facet
    each (research/writing/company.py), so ``rollouts`` is set to one per facet.

    ``OverLimit`` when the member or the workspace has as many runs waiting or running as it may
    (research/runs/admission.py); a caller that admitted the runs it starts itself (a batch) passes ``admit=False``."""
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can start runs.")
    aspects = [aspect.strip()[:80] for aspect in aspects if aspect.strip()][:MAX_ASPECTS]
    limits_given = {"rollouts": rollouts, "budget": budget, "max_turns": max_turns}
    errors = run_validate(
        workspace_id=actor.workspace_id,
        question=question,
        corpora=corpora,
        template=template,
        company=company,
        **limits_given,
    )
    options = _run_options(
        actor=actor, template=template, aspects=aspects, criteria=criteria, writer=writer, web=web, errors=errors
    )
    if errors:
        raise ValidationError(errors)
    kind = kind_of(template)
    question = kind.recorded_question(question=question, company=company, aspects=aspects)
    if kind.about_company:  # one rollout per facet (research/runs/agent.py)
        limits_given["rollouts"] = 1
    with transaction.atomic():
        if admit and enqueue:  # a run the command line executes in its own process takes no place on the queue
            run_admit(actor=actor)
        _lock_corpora(corpora)
        if web:  # the pages its rollouts fetch go to the workspace's web corpus, searched with the others
            corpora = list(dict.fromkeys([*corpora, web_corpus(actor=actor)]))
        run = Run.objects.create(
            workspace_id=actor.workspace_id,
            created_by=actor.user,
            question=question.strip(),
            subject=company.strip() if kind.about_company else "",
            options=options.as_json(),
            template=template,
            enqueued_at=timezone.now(),
            idempotency_key=idempotency_key,
            **limits_given,
        )
        run.corpora.set(corpora)
        if enqueue:
            transaction.on_commit(lambda: run_enqueue(run.pk))
    return run


def _run_options(
    *,
    actor: Membership,
    template: str,
    aspects: list[str],
    criteria: Sequence[Mapping[str, Any]] | None,
    writer: str,
    web: bool,
    errors: dict[str, str],
) -> RunOptions:
    """What a run keeps besides its question and limits (aspects, writer, web sources, an ICP check's profile);
    a value that cannot be used goes into ``errors`` under its field."""
    if writer and writer not in writer_choices():
        errors["writer"] = f"The {writer} writer is not offered here (offered: {', '.join(writer_choices())})."
    if web and not web_offered():
        errors["web"] = "Web sources are not configured on this server (WEB_SEARCH_PROVIDER is none)."
    profile: tuple[dict[str, Any], ...] = ()
    if template in KINDS:
        try:
            profile = kind_of(template).criteria(workspace_icp=actor.workspace.icp or [], given=criteria)
        except ValueError as error:
            errors["template"] = str(error)
    return RunOptions(writer=writer or settings.WRITER_BACKEND, web=web, aspects=tuple(aspects), criteria=profile)


def _lock_corpora(corpora: Sequence[Corpus]) -> None:
    """Lock the corpora's rows for the starting transaction, refusing any deleted since they were read: a corpus
    delete locks the same row and then looks for the runs using it, so either this run is seen and the delete
    refused, or the delete commits first and this run does not start (instead of an integrity error)."""
    locked = Corpus.objects.select_for_update().filter(pk__in=[corpus.pk for corpus in corpora])
    present = set(locked.values_list("pk", flat=True))
    gone = [corpus.name for corpus in corpora if corpus.pk not in present]
    if gone:
        names = ", ".join(f"“{name}”" for name in gone)
        raise ValidationError({"corpora": f"{names} was deleted meanwhile; choose the corpora again."})


def estimate_offline() -> bool:
    """Whether the search agent is the offline heuristic one (``INFERENCE_BACKEND=heuristic``): it calls no model,
    so an estimate of model calls and tokens says what a run would take with the model, not what it costs here."""
    return bool(settings.INFERENCE_BACKEND == "heuristic")


def run_cost(*, rollouts: int, budget: int, max_turns: int, facets: int = 0) -> RunEstimate:
    """The estimate the form shows before starting (search results sized by this deployment's settings); a
    report runs one rollout per facet (``facets``) instead of the rollouts asked for."""
    checks = {"budget": (limits.BUDGET, budget), "max_turns": (limits.MAX_TURNS, max_turns)}
    if facets:
        rollouts = facets
    else:
        checks["rollouts"] = (limits.ROLLOUTS, rollouts)
    errors = {field: error for field, (limit, value) in checks.items() if (error := limit.error(value))}
    if errors:
        raise ValidationError(errors)
    return run_estimate(
        rollouts=rollouts, budget=budget, max_turns=max_turns, search_tokens=settings.SEARCH_BUDGET_TOKENS
    )


def run_cancel(*, actor: Membership, run: Run, reason: str = "") -> Run:
    """Stop a run: a queued one at once; a running one at its next turn boundary (its worker polls for this)."""
    if not actor.can_edit:
        raise PermissionDenied("Only owners and editors can cancel runs.")
    if run.workspace_id != actor.workspace_id:
        raise PermissionDenied("That run is not in your workspace.")
    reason = reason.strip() or f"cancelled by {actor.user.get_username()}"
    done = _cancel_event(run_id=run.pk, reason=reason, by=actor.user.get_username())
    run.refresh_from_db()
    if done is None and run.status != RunStatus.RUNNING:
        raise ValidationError(f"The run has already {run.status}.")
    return run  # (a second cancel of a running run changes nothing)


def _cancel_event(*, run_id: int, reason: str, by: str) -> StoredEvent | None:
    """Cancel a queued run, or ask a running one to stop; None when neither applies. The attempt the event
    belongs to is read under the run's row lock, so a takeover cannot slip between the read and the write."""
    with transaction.atomic():
        attempts = Run.objects.select_for_update().values_list("attempts", flat=True).get(pk=run_id)
        attempt = max(attempts, 1)
        done = event_append(
            run_id=run_id,
            event=RunCancelled(reason=reason),
            attempt=attempt,
            guard=Q(status=RunStatus.QUEUED),
            status=RunStatus.CANCELLED,
            status_reason=reason,
            cancel_reason=reason,
            cancel_requested=True,
            finished_at=timezone.now(),
        )
        if done is not None:
            return done
        return event_append(
            run_id=run_id,
            event=CancelRequested(reason=reason, by=by),
            attempt=attempt,
            guard=Q(status=RunStatus.RUNNING, cancel_requested=False),
            cancel_requested=True,
            cancel_reason=reason,
        )
