"""The Context-1 reward of one rollout (trajectory), term by term, from its events and the task's gold.

    reward = clamp(0.7 * F_beta + 0.3 * trajectory_recall + r_fa - p_prune - p_turn, epsilon, r_pre)

- ``F_beta``: of the rollout's output documents (its final ranking, top K) against the supporting documents; beta
  weighs recall over precision (2 by default: recall counts four times as much);
- ``trajectory_recall``: the share of supporting documents any of the rollout's tool calls returned;
- ``r_fa`` (final answer): 1 when a chunk of the output holds the truth (``answer_found``), else 0;
- ``p_prune``: 0.1 per prune call past the 3rd in a streak of consecutive prune calls, at most 0.5 (pruning
  again and again instead of searching);
- ``p_turn``: 0 up to 64 turns, rising linearly to 0.5 at 128 turns and staying there.

The report names the bounds ``epsilon`` and ``r_pre`` without values this product could take from it. Decided here:
``epsilon`` = 0.01, so a rollout that found nothing still scores above a failed one (0: no output, no reward), and
``r_pre`` = 2.0, the most the terms can add up to, so the clamp only floors. Both are settings, and every term is
reported, so a trainer can recompute the reward with bounds of its own. Framework-free.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from research.evaluation.metrics import answer_found, documents_seen, top_documents
from research.protocol.events import PRUNE, Event, RolloutFinished, ToolCalled, ToolReturned

F_WEIGHT, TRAJECTORY_WEIGHT = 0.7, 0.3


@dataclass(frozen=True)
class RewardSettings:
    beta: float = 2.0
    epsilon: float = 0.01
    ceiling: float = 2.0  # r_pre
    prune_streak: int = 3  # prune calls in a row that cost nothing
    prune_step: float = 0.1
    prune_cap: float = 0.5
    turns_free: int = 64
    turns_full: int = 128  # where the turn penalty reaches its cap
    turn_cap: float = 0.5


@dataclass(frozen=True)
class RewardTerms:
    """One trajectory's reward and its terms (``raw``: before the clamp)."""

    f_beta: float
    trajectory_recall: float
    final_answer: float
    prune_penalty: float
    turn_penalty: float
    raw: float
    reward: float

    def as_dict(self) -> dict[str, float]:
        return {name: round(value, 4) for name, value in dataclasses.asdict(self).items()}


TERM_NAMES = tuple(field.name for field in dataclasses.fields(RewardTerms))


def f_beta(returned: Iterable[str], supporting: Iterable[str], beta: float) -> float:
    """F-beta of distinct returned documents against the supporting ones (0 when either side is empty or nothing
    matches)."""
    gold, found = set(supporting), set(returned)
    hits = len(gold & found)
    if not hits:
        return 0.0
    precision, recall = hits / len(found), hits / len(gold)
    weight = beta * beta
    return (1 + weight) * precision * recall / (weight * precision + recall)


def prune_penalty(tools: Sequence[str], settings: RewardSettings) -> float:
    """``tools``: the rollout's tool calls in order. Each prune call past ``prune_streak`` in a run of consecutive
    prune calls costs ``prune_step``; the total is capped."""
    extra = streak = 0
    for tool in tools:
        streak = streak + 1 if tool == PRUNE else 0
        extra += streak > settings.prune_streak
    return min(settings.prune_cap, extra * settings.prune_step)


def turn_penalty(turns: int, settings: RewardSettings) -> float:
    if turns <= settings.turns_free:
        return 0.0
    share = (turns - settings.turns_free) / (settings.turns_full - settings.turns_free)
    return settings.turn_cap * min(1.0, share)


def terms(
    *,
    returned: Sequence[str],
    supporting: Sequence[str],
    seen: Iterable[str],
    output_texts: Iterable[str],
    answers: Sequence[str],
    tools: Sequence[str],
    turns: int,
    settings: RewardSettings,
) -> RewardTerms:
    """The reward of one trajectory: its output documents (``returned``) and their chunks' texts, the documents its
    tools returned (``seen``), its tool calls in order and its turns."""
    gold = set(supporting)
    parts = {
        "f_beta": f_beta(returned, gold, settings.beta),
        "trajectory_recall": len(gold & set(seen)) / len(gold) if gold else 0.0,
        "final_answer": 1.0 if answer_found(answers, output_texts) else 0.0,
        "prune_penalty": prune_penalty(tools, settings),
        "turn_penalty": turn_penalty(turns, settings),
    }
    raw = (
        F_WEIGHT * parts["f_beta"]
        + TRAJECTORY_WEIGHT * parts["trajectory_recall"]
        + parts["final_answer"]
        - parts["prune_penalty"]
        - parts["turn_penalty"]
    )
    return RewardTerms(**parts, raw=raw, reward=min(settings.ceiling, max(settings.epsilon, raw)))


def failed() -> RewardTerms:
    """A rollout that ended in an error: no output, no reward."""
    return RewardTerms(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


ChunkTexts = Callable[[str, Sequence[str]], list[str]]  # (doc id, chunk ids) -> those chunks' texts


def rollout_rewards(
    events: Sequence[Event],
    *,
    supporting: Sequence[str],
    answers: Sequence[str],
    top_k: int,
    chunk_texts: ChunkTexts,
    settings: RewardSettings,
) -> dict[int, RewardTerms]:
    """Each rollout's reward from a run's events: its final ranking (``rollout_finished``), what its tools returned,
    its tool calls and turns."""
    rewards: dict[int, RewardTerms] = {}
    for finished in (e for e in events if isinstance(e, RolloutFinished)):
        mine = [e for e in events if getattr(e, "rollout", None) == finished.rollout]
        if finished.error is not None:
            rewards[finished.rollout] = failed()
            continue
        output = finished.documents[:top_k]
        rewards[finished.rollout] = terms(
            returned=top_documents((doc.doc_id for doc in output), top_k),
            supporting=supporting,
            seen=documents_seen(e for e in mine if isinstance(e, ToolReturned)),
            output_texts=[text for doc in output for text in chunk_texts(doc.doc_id, doc.chunk_ids)],
            answers=answers,
            tools=[e.tool for e in mine if isinstance(e, ToolCalled)],
            turns=finished.turns,
            settings=settings,
        )
    return rewards


def mean_terms(rewards: Iterable[RewardTerms]) -> dict[str, float] | None:
    """The mean of each term over trajectories (None for none)."""
    rows = [reward.as_dict() for reward in rewards]
    if not rows:
        return None
    return {name: round(sum(row[name] for row in rows) / len(rows), 4) for name in TERM_NAMES}
