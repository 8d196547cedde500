"""Starting runs (validated, enqueued after commit), the estimate, and cancelling."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from research.corpora import services as corpus_services
from research.models import Corpus, Membership, Run, RunEvent, RunStatus
from research.runs import services as runs
from research.runs.lease import run_claim
from tests.research.runs.conftest import QUESTION, ingest


@pytest.mark.django_db
def test_it_creates_the_run_and_enqueues_it_after_commit(  # type: ignore[no-untyped-def]
    owner, corpus, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(runs, "run_enqueue", sent.append)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        run = runs.run_start(actor=owner, question=f"  {QUESTION} ", corpora=[corpus], rollouts=2, budget=16_384)
    assert sent == []
    for callback in callbacks:
        callback()
    assert sent == [run.pk]
    run.refresh_from_db()
    assert run.status == RunStatus.QUEUED
    assert run.question == QUESTION
    assert list(run.corpora.all()) == [corpus]
    assert (run.rollouts, run.budget, run.max_turns, run.template) == (2, 16_384, 16, "question")
    assert run.created_by == owner.user
    assert run.enqueued_at is not None


@pytest.mark.django_db
def test_a_run_on_a_corpus_deleted_meanwhile_is_refused_not_an_integrity_error(  # type: ignore[no-untyped-def]
    owner, corpus, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """The form read the corpora, then another member deleted one (issue 11: the delete/start race)."""
    monkeypatch.setattr(runs, "run_enqueue", lambda run_id: None)
    stale = Corpus.objects.get(pk=corpus.pk)
    with django_capture_on_commit_callbacks(execute=True):
        corpus_services.corpus_delete(actor=owner, corpus=corpus)
    with pytest.raises(ValidationError) as refused:
        runs.run_start(actor=owner, question=QUESTION, corpora=[stale])
    assert refused.value.message_dict == {"corpora": ["“Market” was deleted meanwhile; choose the corpora again."]}
    assert not Run.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"question": "   "}, "question"),
        ({"question": "x" * 4001}, "question"),
        ({"rollouts": 0}, "rollouts"),
        ({"rollouts": 9}, "rollouts"),
        ({"budget": 1000}, "budget"),
        ({"max_turns": 0}, "max_turns"),
        ({"template": "horoscope"}, "template"),
        ({"corpora": []}, "corpora"),
    ],
)
def test_it_refuses_bad_input_field_by_field(owner, corpus, options, field) -> None:  # type: ignore[no-untyped-def]
    arguments = {"question": QUESTION, "corpora": [corpus], **options}
    with pytest.raises(ValidationError) as refused:
        runs.run_start(actor=owner, **arguments)
    assert set(refused.value.message_dict) == {field}
    assert not Run.objects.exists()


@pytest.mark.django_db
def test_it_refuses_a_corpus_of_another_workspace(owner, corpus, make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    stranger = Membership.objects.get(workspace=make_workspace(make_user()))
    foreign = ingest(stranger, "Theirs", {"a.txt": b"secret"})
    with pytest.raises(ValidationError) as refused:
        runs.run_start(actor=owner, question=QUESTION, corpora=[corpus, foreign])
    assert "corpora" in refused.value.message_dict


@pytest.mark.django_db
def test_a_viewer_cannot_start_or_cancel(owner, corpus, make_user, start_run) -> None:  # type: ignore[no-untyped-def]
    viewer = Membership.objects.create(workspace=owner.workspace, user=make_user(), role="viewer")
    with pytest.raises(PermissionDenied):
        runs.run_start(actor=viewer, question=QUESTION, corpora=[corpus])
    run = start_run([corpus])
    with pytest.raises(PermissionDenied):
        runs.run_cancel(actor=viewer, run=run)


def test_the_estimate_scales_with_rollouts_and_respects_the_limits() -> None:
    one = runs.run_cost(rollouts=1, budget=32_768, max_turns=16)
    four = runs.run_cost(rollouts=4, budget=32_768, max_turns=16)
    assert four.model_calls == 4 * one.model_calls
    assert four.tokens == 4 * one.tokens
    assert four.max_model_calls == 4 * 16
    assert one.model_calls == 6  # the report's 5.2 turns, rounded up
    assert one.tokens <= one.max_tokens
    short = runs.run_cost(rollouts=1, budget=32_768, max_turns=2)
    assert short.model_calls == 2
    small = runs.run_cost(rollouts=1, budget=4_096, max_turns=16)
    assert small.tokens < one.tokens  # a smaller budget caps every call's context
    with pytest.raises(ValidationError):
        runs.run_cost(rollouts=9, budget=32_768, max_turns=16)


@pytest.mark.django_db(transaction=True)
def test_cancelling_a_queued_run_ends_it_at_once(owner, corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = runs.run_cancel(actor=owner, run=start_run([corpus]), reason="typo in the question")
    assert run.status == RunStatus.CANCELLED
    assert run.status_reason == "typo in the question"
    assert run.finished_at is not None
    event = RunEvent.objects.get(run=run)
    assert event.type == "run_cancelled"
    assert event.payload == {"type": "run_cancelled", "reason": "typo in the question", "documents": []}
    assert run_claim(run_id=run.pk) is None


@pytest.mark.django_db(transaction=True)
def test_cancelling_a_running_run_asks_its_worker_and_twice_is_harmless(owner, corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus])
    assert run_claim(run_id=run.pk) is not None
    run = runs.run_cancel(actor=owner, run=run)
    assert run.status == RunStatus.RUNNING
    assert run.cancel_requested
    assert run.cancel_reason == f"cancelled by {owner.user.username}"
    runs.run_cancel(actor=owner, run=run, reason="again")
    assert list(RunEvent.objects.filter(run=run).values_list("type", flat=True)) == ["cancel_requested"]


@pytest.mark.django_db(transaction=True)
def test_cancelling_a_finished_run_is_refused(owner, corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus])
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED)
    run.refresh_from_db()
    with pytest.raises(ValidationError, match="already finished"):
        runs.run_cancel(actor=owner, run=run)


@pytest.mark.django_db(transaction=True)
def test_a_cancel_names_the_attempt_holding_the_run_even_when_the_page_read_an_older_one(  # type: ignore[no-untyped-def]
    owner, start_run
) -> None:
    """A view reads the run (attempt 1), another worker takes it over (attempt 2), then the member cancels:
    the request belongs to attempt 2 and comes after its run_restarted (found by the lifecycle machine)."""
    run = start_run([Corpus.objects.create(workspace=owner.workspace, name="Bare", slug="bare")])
    assert run_claim(run_id=run.pk) is not None
    seen_by_the_page = Run.objects.get(pk=run.pk)
    Run.objects.filter(pk=run.pk).update(claimed_until=timezone.now() - timedelta(seconds=1))
    assert run_claim(run_id=run.pk).attempt == 2  # type: ignore[union-attr]
    runs.run_cancel(actor=owner, run=seen_by_the_page, reason="stop")
    journal = list(RunEvent.objects.filter(run=run).order_by("seq").values_list("type", "attempt"))
    assert journal == [("run_restarted", 2), ("cancel_requested", 2)]
