"""The journal: contiguous sequence numbers under concurrent writers, guarded writes, publish after commit."""

from __future__ import annotations

import pytest
from django.db.models import Q

from research.models import Run, RunEvent, RunStatus
from research.protocol.events import TurnStarted
from research.runs import journal
from tests.research.runs.conftest import at_once, seqs


@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_get_contiguous_unique_sequence_numbers(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus])

    def write() -> None:
        for n in range(20):
            events = [TurnStarted(rollout=i, turn=n) for i in range(3)]
            stored = journal.events_store(run_id=run.pk, events=events, attempt=1, guard=Q())
            assert stored is not None
            assert [e.seq for e in stored] == list(range(stored[0].seq, stored[0].seq + 3))

    at_once(write, 3)
    assert seqs(run) == list(range(1, 181))
    assert Run.objects.get(pk=run.pk).last_seq == 180


@pytest.mark.django_db(transaction=True)
def test_a_write_whose_guard_fails_stores_nothing(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus])
    guard = Q(status=RunStatus.RUNNING)
    assert journal.events_store(run_id=run.pk, events=[TurnStarted(rollout=0, turn=1)], attempt=1, guard=guard) is None
    assert not RunEvent.objects.filter(run=run).exists()
    assert Run.objects.get(pk=run.pk).last_seq == 0


@pytest.mark.django_db
def test_an_appended_event_is_published_only_after_commit(  # type: ignore[no-untyped-def]
    corpus, start_run, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    run = start_run([corpus])
    published: list[tuple[int, list[dict[str, object]]]] = []
    monkeypatch.setattr(journal, "publish_run_events", lambda run_id, messages: published.append((run_id, messages)))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        event = journal.event_append(run_id=run.pk, event=TurnStarted(rollout=0, turn=1), attempt=1, guard=Q())
        assert published == []
    assert len(callbacks) >= 1
    assert event is not None
    assert published == [(run.pk, [event.message()])]
    assert published[0][1][0]["seq"] == 1
    assert set(published[0][1][0]) == {"seq", "type", "payload", "attempt", "at"}
