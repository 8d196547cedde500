"""The report's metrics on hand-made events and gold, with hypothesis for the set-valued edge cases."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from research.evaluation.formats import Task
from research.evaluation.metrics import (
    METRIC_NAMES,
    TaskMetrics,
    agent_metrics,
    aggregate,
    answer_found,
    baseline_metrics,
    document_scores,
    normalise,
    prune_accuracy,
    run_cost,
    side_by_side,
    top_documents,
    trajectory_recall,
)
from research.protocol.events import (
    ChunkRef,
    ChunksPruned,
    Event,
    RolloutFinished,
    ToolCalled,
    ToolReturned,
    TurnRecorded,
)

TASK = Task(
    id="t1", question="Who?", answer="G. Stanley Hall", answer_aliases=("Stanley Hall",), supporting_doc_ids=("a", "b")
)
TEXTS = {"a": "The APA's first president was G. Stanley Hall.", "b": "APA publishes it.", "c": "Hallway", "d": "x"}


def ref(chunk_id: str) -> ChunkRef:
    return ChunkRef(chunk_id=chunk_id, doc_id=chunk_id.rpartition("#")[0], title="", score=1.0)


def returned(rollout: int, turn: int, *chunk_ids: str) -> ToolReturned:
    chunks = tuple(ref(c) for c in chunk_ids)
    return ToolReturned(rollout=rollout, turn=turn, call_id="c", tool="search_corpus", chunks=chunks)


def called(rollout: int, turn: int) -> ToolCalled:
    return ToolCalled(rollout=rollout, turn=turn, call_id="c", tool="search_corpus", query="q", arguments="{}")


def recorded(rollout: int, turn: int, context: int, prompt: int = 100, completion: int = 10) -> TurnRecorded:
    return TurnRecorded(
        rollout=rollout,
        turn=turn,
        prompt_tokens=prompt,
        completion_tokens=completion,
        cached_tokens=None,
        context_tokens=context,
        exact=True,
    )


EVENTS: list[Event] = [
    recorded(0, 1, 500),
    called(0, 1),
    called(0, 1),
    returned(0, 1, "a#0", "c#0", "c#1"),
    recorded(1, 1, 400),
    called(1, 1),
    returned(1, 1, "d#0", "b#2"),
    recorded(0, 2, 900),
    called(0, 2),
    ChunksPruned(rollout=0, turn=2, chunk_ids=("c#0", "c#1", "a#0"), freed_tokens=30),
    ChunksPruned(rollout=1, turn=2, chunk_ids=("d#0",), freed_tokens=10),
    recorded(1, 2, 700),
    RolloutFinished(rollout=0, turns=2, reason="completed"),
    RolloutFinished(rollout=1, turns=3, reason="answered"),
]


def test_it_normalises_case_whitespace_and_punctuation() -> None:
    assert normalise("  G.  Stanley\tHALL! ") == "g stanley hall"
    assert normalise("\uff26\uff55\uff4c\uff4c-width") == "full width"  # full-width letters


def test_it_finds_an_answer_or_alias_as_whole_words_only() -> None:
    assert answer_found(["G. Stanley Hall"], ["first president: g stanley  hall."]) is True
    assert answer_found(["Nobody", "stanley hall"], ["G. Stanley Hall"]) is True
    assert answer_found(["Hall"], ["Hallway"]) is False
    assert answer_found(["Hall"], []) is False
    assert answer_found(["", "..."], ["anything"]) is None


def test_it_scores_returned_documents_against_the_supporting_ones() -> None:
    assert document_scores(["a", "c", "d", "e"], ["a", "b"]) == (0.5, 0.25, pytest.approx(1 / 3))
    assert document_scores([], ["a"]) == (0.0, 0.0, 0.0)
    assert document_scores(["a"], []) == (None, 0.0, 0.0)
    assert top_documents(["a", "a", "b", "c", "b"], 2) == ["a", "b"]


def test_it_counts_the_trajectory_prunes_and_costs_over_every_rollout() -> None:
    assert trajectory_recall(EVENTS, TASK.supporting_doc_ids) == 1.0  # a seen by rollout 0, b by rollout 1
    assert trajectory_recall(EVENTS[:4], TASK.supporting_doc_ids) == 0.5
    assert prune_accuracy(EVENTS, TASK.supporting_doc_ids) == 0.75  # a#0 was supporting; c#0, c#1, d#0 were not
    assert prune_accuracy(EVENTS[:4], TASK.supporting_doc_ids) is None
    turns, per_turn, tokens, processed = run_cost(EVENTS)
    assert (turns, per_turn, tokens, processed) == (2.5, 4 / 5, 900 + 700, 4 * 110)


def test_it_counts_a_pruned_chunk_once_per_rollout() -> None:
    twice = [ChunksPruned(rollout=0, turn=t, chunk_ids=("a#0",), freed_tokens=1) for t in (1, 2)]
    other = [ChunksPruned(rollout=1, turn=1, chunk_ids=("c#0",), freed_tokens=1)]
    assert prune_accuracy([*twice, *other], ["a"]) == 0.5


def test_it_takes_turns_from_turn_records_when_a_rollout_never_finished() -> None:
    assert run_cost([recorded(0, 1, 10), recorded(0, 2, 20), called(0, 2)]) == (2.0, 0.5, 20, 220)
    assert run_cost([]) == (0.0, 0.0, 0, 0)


def test_it_builds_agent_and_baseline_rows() -> None:
    agent = agent_metrics(TASK, ["c", "a", "a"], TEXTS, EVENTS)
    assert agent.final_answer_found is True
    assert (agent.recall, agent.precision) == (0.5, 0.5)
    assert agent.trajectory_recall == 1.0
    baseline = baseline_metrics(TASK, ["c", "d"], TEXTS, tokens=42)
    assert baseline.final_answer_found is False  # "Hallway" is not "Hall"
    assert (baseline.recall, baseline.trajectory_recall, baseline.prune_accuracy) == (0.0, 0.0, None)
    assert (baseline.turns_per_run, baseline.tool_calls_per_turn, baseline.tokens_per_run) == (1.0, 1.0, 42)
    assert set(agent.as_dict()) == set(METRIC_NAMES)


def test_it_averages_over_tasks_skipping_what_does_not_apply() -> None:
    rows = [
        baseline_metrics(TASK, ["a"], TEXTS, tokens=10),
        TaskMetrics(False, None, 0.0, 0.0, None, 0.5, 3.0, 2.0, 30, 40),
    ]
    means = aggregate(rows)
    assert means["final_answer_found"] == 0.5
    assert means["recall"] == 0.5  # the second task has no gold: skipped
    assert means["prune_accuracy"] == 0.5
    assert means["tokens_per_run"] == 20.0
    assert aggregate([])["recall"] is None
    table = side_by_side({"agent": means, "baseline": means})
    assert table.splitlines()[0].split() == ["metric", "agent", "baseline"]
    assert len(table.splitlines()) == len(METRIC_NAMES) + 1


ids = st.lists(st.sampled_from("abcdefgh"), max_size=12)


@given(returned_ids=ids, gold=ids)
def test_document_scores_lie_in_range_and_ignore_duplicates_and_order(returned_ids: list[str], gold: list[str]) -> None:
    recall, precision, f1 = document_scores(returned_ids, gold)
    assert document_scores(list(reversed(returned_ids)) * 2, gold) == (recall, precision, f1)
    assert 0.0 <= precision <= 1.0
    assert 0.0 <= f1 <= 1.0
    if not gold:
        assert recall is None
    else:
        assert recall is not None
        assert 0.0 <= recall <= 1.0
        assert (f1 > 0) == bool(set(returned_ids) & set(gold))
    if not returned_ids:
        assert (precision, f1) == (0.0, 0.0)


@given(seen=st.lists(st.sampled_from("abcdefgh"), max_size=12), gold=st.lists(st.sampled_from("abcd"), min_size=1))
def test_trajectory_recall_bounds_recall_and_prune_accuracy_counts_non_gold(seen: list[str], gold: list[str]) -> None:
    events: list[Event] = [returned(0, 1, *(f"{doc}#0" for doc in seen))]
    recall, _, _ = document_scores(seen[:3], gold)
    trajectory = trajectory_recall(events, gold)
    assert trajectory is not None
    assert recall is not None
    assert trajectory >= recall
    pruned = [ChunksPruned(rollout=0, turn=2, chunk_ids=tuple(f"{doc}#0" for doc in seen), freed_tokens=0)]
    accuracy = prune_accuracy(events + pruned, gold)
    assert (accuracy is None) == (not seen)
    if accuracy is not None:
        assert accuracy == pytest.approx(len(set(seen) - set(gold)) / len(set(seen)))
