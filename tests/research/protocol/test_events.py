"""The event registry: every kind, the harness's and the journal's, round-trips through JSON."""

from __future__ import annotations

import json
from typing import get_args

import pytest

from research.protocol.events import (
    EVENT_TYPES,
    AnyEvent,
    CancelRequested,
    PageRef,
    ReportWritten,
    RunRequeued,
    RunRestarted,
    ToolReturned,
    WebHit,
    WritingFailed,
    WritingStarted,
    from_dict,
    to_dict,
)
from research.protocol.report import Citation, Claim, Removed, Report, Section, Source

REPORT = Report(
    template="competitor",
    writer="extractive",
    subject="Acme",
    summary=(Claim(text="Acme raised $4M.", citations=(Citation(chunk_id="a#0", doc_id="a", quote="raised $4M"),)),),
    sections=(
        Section(
            facet="funding", title="Funding", claims=(Claim(text="x", citations=(), date="2024-01-02", stale=True),)
        ),
        Section(facet="pricing", title="Pricing", not_found=True),
    ),
    removed=(Removed(text="Acme is profitable.", reason="it cites nothing"),),
    sources=(Source(doc_id="a", title="A", source="a.txt", date=None),),
    notes=("No evidence found in the searched corpora.",),
)


def test_the_registry_names_every_event_class_once() -> None:
    classes = get_args(AnyEvent)
    assert set(EVENT_TYPES.values()) == set(classes)
    assert len(EVENT_TYPES) == len(classes)


@pytest.mark.parametrize(
    "event",
    [
        RunRequeued(attempt=1, reason="worker lost"),
        RunRestarted(attempt=2, reason="worker lost", max_attempts=3, superseded_through=41),
        CancelRequested(reason="enough", by="ada"),
        WritingStarted(writer="extractive", evidence=12),
        ReportWritten(report=REPORT),
        WritingFailed(error="OperationalError: database is locked"),
    ],
)
def test_journal_events_round_trip(event: AnyEvent) -> None:
    assert from_dict(json.loads(json.dumps(to_dict(event)))) == event


def test_a_stored_restart_without_its_later_fields_still_reads() -> None:
    assert from_dict({"type": "run_restarted", "attempt": 2, "reason": "lost"}) == RunRestarted(
        attempt=2, reason="lost"
    )


@pytest.mark.parametrize("data", [{"type": "no_such_event"}, {"type": "run_requeued"}, {"type": "run_failed", "x": 1}])
def test_a_malformed_event_raises(data: dict[str, object]) -> None:
    with pytest.raises((KeyError, TypeError)):
        from_dict(data)


def test_a_web_tool_result_round_trips_and_an_older_one_still_reads() -> None:
    searched = ToolReturned(
        rollout=0,
        turn=1,
        call_id="c1",
        tool="web_search",
        results=(WebHit(url="https://a.example/", title="A", snippet="s", published_date="2026-01-02"),),
    )
    fetched = ToolReturned(
        rollout=0, turn=2, call_id="c2", tool="fetch_url", page=PageRef(url="https://a.example/", outcome="cached")
    )
    for event in (searched, fetched):
        assert from_dict(json.loads(json.dumps(to_dict(event)))) == event
    stored_before_web = {"type": "tool_returned", "rollout": 0, "turn": 1, "call_id": "c", "tool": "search_corpus"}
    assert from_dict(stored_before_web) == ToolReturned(rollout=0, turn=1, call_id="c", tool="search_corpus")
