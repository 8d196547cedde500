"""The Context-1 reward on hand-computed trajectories: each term, the clamp, and the rewards of a run's rollouts."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from research.evaluation.metrics import document_scores
from research.evaluation.reward import (
    RewardSettings,
    f_beta,
    mean_terms,
    prune_penalty,
    rollout_rewards,
    terms,
    turn_penalty,
)
from research.protocol.events import ChunkRef, RankedDocument, RolloutFinished, ToolCalled, ToolReturned

SETTINGS = RewardSettings()
SEARCH, PRUNE = "search_corpus", "prune_chunks"


def test_f_beta_weighs_recall_by_beta() -> None:
    # precision 1/2, recall 1/2: any beta gives 1/2; precision 1, recall 1/2: F2 = 5 * 0.5 / (4 + 0.5) = 0.5556
    assert f_beta(["a", "x"], ["a", "b"], 2.0) == pytest.approx(0.5)
    assert f_beta(["a"], ["a", "b"], 2.0) == pytest.approx(5 * 0.5 / 4.5)
    assert f_beta(["a", "x", "y", "z"], ["a"], 2.0) == pytest.approx(5 * 0.25 / (4 * 0.25 + 1))  # recall 1: 0.7692
    assert f_beta(["a"], ["a", "b"], 1.0) == pytest.approx(document_scores(["a"], ["a", "b"])[2])  # F1
    assert f_beta([], ["a"], 2.0) == f_beta(["x"], ["a"], 2.0) == f_beta(["a"], [], 2.0) == 0.0


def test_prune_calls_past_three_in_a_row_cost_a_tenth_each_up_to_a_half() -> None:
    assert prune_penalty([SEARCH, PRUNE, PRUNE, PRUNE, SEARCH, PRUNE], SETTINGS) == 0.0
    assert prune_penalty([SEARCH, *[PRUNE] * 5, SEARCH, PRUNE, PRUNE], SETTINGS) == pytest.approx(0.2)
    assert prune_penalty([*[PRUNE] * 4, SEARCH, *[PRUNE] * 4], SETTINGS) == pytest.approx(0.2)  # two streaks of 4
    assert prune_penalty([PRUNE] * 12, SETTINGS) == 0.5  # 9 extra, capped


def test_the_turn_penalty_rises_from_64_to_128_turns() -> None:
    assert [turn_penalty(turns, SETTINGS) for turns in (1, 64, 80, 96, 128, 300)] == [0, 0, 0.125, 0.25, 0.5, 0.5]


def _terms(**given: object) -> dict[str, float]:
    defaults: dict[str, object] = {
        "returned": [],
        "supporting": ["a", "b"],
        "seen": [],
        "output_texts": [],
        "answers": ["Glenmorrow"],
        "tools": [],
        "turns": 10,
        "settings": SETTINGS,
    }
    return terms(**{**defaults, **given}).as_dict()  # type: ignore[arg-type]


def test_a_trajectory_by_hand() -> None:
    # F2 0.5 (a of a, b; x extra), saw a and b, the truth in an output chunk, 5 prunes in a row (0.2), 96 turns (0.25):
    # 0.7 * 0.5 + 0.3 * 1 + 1 - 0.2 - 0.25 = 1.2
    found = _terms(
        returned=["a", "x"],
        seen=["a", "b", "y"],
        output_texts=["Halvorix renewed with Glenmorrow in May."],
        tools=[SEARCH, *[PRUNE] * 5, SEARCH],
        turns=96,
    )
    assert found == {
        "f_beta": 0.5,
        "trajectory_recall": 1.0,
        "final_answer": 1.0,
        "prune_penalty": 0.2,
        "turn_penalty": 0.25,
        "raw": 1.2,
        "reward": 1.2,
    }


def test_the_clamp_floors_at_epsilon_and_caps_at_r_pre() -> None:
    nothing = _terms(output_texts=["Glenmorrowish"])  # not the word itself
    assert (nothing["raw"], nothing["reward"]) == (0.0, 0.01)
    punished = _terms(tools=[PRUNE] * 10, turns=200)  # raw -1.0
    assert (punished["raw"], punished["reward"]) == (-1.0, 0.01)
    perfect = {"returned": ["a", "b"], "seen": ["a", "b"], "output_texts": ["Glenmorrow"]}
    assert _terms(**perfect)["reward"] == 2.0
    assert _terms(**perfect, settings=RewardSettings(ceiling=1.5))["reward"] == 1.5


def _ranked(*doc_ids: str) -> tuple[RankedDocument, ...]:
    return tuple(RankedDocument(doc_id=d, title=d, score=1.0, chunk_ids=(f"{d}#0",)) for d in doc_ids)


def _returned(rollout: int, *doc_ids: str) -> ToolReturned:
    chunks = tuple(ChunkRef(chunk_id=f"{d}#0", doc_id=d, title=d, score=1.0) for d in doc_ids)
    return ToolReturned(rollout=rollout, turn=1, call_id="c", tool=SEARCH, chunks=chunks)


def _called(rollout: int, tool: str) -> ToolCalled:
    return ToolCalled(rollout=rollout, turn=1, call_id="c", tool=tool, query="q", arguments="{}")


TEXTS = {"a#0": "Halvorix", "b#0": "It chose Glenmorrow.", "x#0": "noise"}


def _chunk_texts(doc_id: str, chunk_ids: Sequence[str]) -> list[str]:
    return [TEXTS[chunk_id] for chunk_id in chunk_ids]


def test_each_rollout_of_a_run_has_its_own_reward() -> None:
    events = [
        _called(0, SEARCH),
        _returned(0, "a", "b"),
        _called(1, SEARCH),
        _returned(1, "x"),
        _called(2, SEARCH),
        RolloutFinished(rollout=0, turns=3, reason="completed", documents=_ranked("a", "b", "x")),
        RolloutFinished(rollout=1, turns=2, reason="completed", documents=_ranked("x")),
        RolloutFinished(rollout=2, turns=1, reason="failed", error="model server down"),
    ]
    rewards = rollout_rewards(
        events, supporting=["a", "b"], answers=["Glenmorrow"], top_k=2, chunk_texts=_chunk_texts, settings=SETTINGS
    )
    # rollout 0: top 2 = a, b (x cut by top_k): F2 1, saw both, b's chunk holds the truth: 0.7 + 0.3 + 1 = 2.0
    assert rewards[0].as_dict()["reward"] == 2.0
    # rollout 1: returned x only, saw x: nothing; floored
    assert (rewards[1].raw, rewards[1].reward) == (0.0, 0.01)
    assert rewards[2].reward == 0.0  # failed: no output
    means = mean_terms(rewards.values())
    assert means is not None
    assert means["reward"] == pytest.approx((2.0 + 0.01 + 0.0) / 3, abs=1e-4)
    assert mean_terms([]) is None
