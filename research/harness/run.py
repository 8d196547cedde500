"""A research run: N rollouts in parallel on one corpus, their rankings fused by RRF as they go."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from research.harness.config import HarnessConfig
from research.harness.context import Counter
from research.harness.loop import Rollout, RolloutOutcome
from research.harness.ports import Corpus, EventSink, InferenceBackend, Web
from research.harness.ranking import fuse_rollouts
from research.protocol.events import (
    Event,
    FusedRankingUpdated,
    RankedDocument,
    RolloutFinished,
    RunCancelled,
    RunFailed,
    RunFinished,
    RunStarted,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunResult:
    status: str  # "finished" | "failed" | "cancelled"
    documents: tuple[RankedDocument, ...]
    rollouts: tuple[RolloutOutcome, ...]
    error: str | None = None


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate (about four characters a token), used when no counter is given."""
    return (len(text) + 3) // 4


async def run_research(
    *,
    question: str,
    corpus: Corpus,
    backend_for: Callable[[int], InferenceBackend],
    config: HarnessConfig,
    sink: EventSink,
    count: Counter = estimate_tokens,
    cancelled: Callable[[], bool] = lambda: False,
    cancel_reason: Callable[[], str] = lambda: "cancelled",
    facets: Sequence[tuple[str, str]] = (),
    web: Web | None = None,
) -> RunResult:
    """Run ``config.rollouts`` rollouts on ``question``; with ``facets`` ((label, question) pairs, as many as
    rollouts: a report), rollout ``i`` searches facet ``i``'s question instead, all of them concurrently."""
    if facets and len(facets) != config.rollouts:
        raise ValueError(f"{len(facets)} facets for {config.rollouts} rollouts")
    emit = sink.emit
    labels = tuple(label for label, _ in facets)
    emit(RunStarted(question=question, rollouts=config.rollouts, budget=config.budget.limit, labels=labels))
    rollouts: list[Rollout] = []
    # Each rollout's ranking as of its last finished turn: only the rollout that just ended a turn changed, so a
    # report's nine facets do not re-rank all nine every turn (that grew with the square of the rollouts).
    latest: list[list[RankedDocument]] = [[] for _ in range(config.rollouts)]

    def fused_update(rollout: int, turn: int) -> None:
        latest[rollout] = rollouts[rollout].ranking()
        documents = fuse_rollouts(latest, top_k=config.top_k)
        emit(FusedRankingUpdated(rollout=rollout, turn=turn, documents=tuple(documents)))

    for index in range(config.rollouts):
        rollouts.append(
            Rollout(
                index=index,
                question=facets[index][1] if facets else question,
                backend=backend_for(index),
                corpus=corpus,
                config=config,
                emit=emit,
                count=count,
                cancelled=cancelled,
                on_turn=fused_update,
                web=web,
            )
        )
    outcomes = await asyncio.gather(*(_guarded(r, emit) for r in rollouts))
    stopped = any(outcome.reason == "cancelled" for outcome in outcomes)  # a cancel after every rollout
    return _finish(outcomes, config, emit, cancel_reason() if stopped else None)  # ended changes nothing


async def _guarded(rollout: Rollout, emit: Callable[[Event], None]) -> RolloutOutcome:
    """Run one rollout; a failure ends only this rollout."""
    try:
        outcome = await rollout.run()
    except Exception as error:
        logger.warning("rollout %s failed: %s", rollout.index, error, exc_info=True)
        outcome = RolloutOutcome(reason="failed", turns=rollout.turn, error=f"{type(error).__name__}: {error}")
    emit(
        RolloutFinished(
            rollout=rollout.index,
            turns=outcome.turns,
            reason=outcome.reason,
            documents=tuple(outcome.documents),
            error=outcome.error,
        )
    )
    return outcome


def _finish(
    outcomes: list[RolloutOutcome], config: HarnessConfig, emit: Callable[[Event], None], cancelled: str | None
) -> RunResult:
    ok = [outcome for outcome in outcomes if outcome.reason != "failed"]
    if cancelled is not None:  # ``cancelled`` is the reason; what the rollouts had found is kept, fused
        found = tuple(fuse_rollouts([outcome.documents for outcome in ok], top_k=config.top_k))
        emit(RunCancelled(reason=cancelled, documents=found))
        return RunResult("cancelled", found, tuple(outcomes))
    if not ok:
        error = "; ".join(sorted({outcome.error or "unknown error" for outcome in outcomes}))
        emit(RunFailed(error=f"every rollout failed: {error}"))
        return RunResult("failed", (), tuple(outcomes), error)
    documents = tuple(fuse_rollouts([outcome.documents for outcome in ok], top_k=config.top_k))
    emit(RunFinished(documents=documents, rollouts_ok=len(ok), rollouts_failed=len(outcomes) - len(ok)))
    return RunResult("finished", documents, tuple(outcomes))
