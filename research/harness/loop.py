"""One rollout: observe -> infer -> act, turn after turn, until the model stops, completes or runs out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from research.harness import budget
from research.harness.acting import Actor
from research.harness.config import HarnessConfig
from research.harness.context import Context, Counter, Observation
from research.harness.messages import Message, ModelTurn
from research.harness.ports import Corpus, InferenceBackend, ModelMisbehaving, Web
from research.harness.prompts import system_prompt
from research.harness.ranking import rollout_ranking
from research.harness.tools import tool_specs
from research.protocol.events import (
    BudgetLevel,
    BudgetLevelChanged,
    Event,
    RankedDocument,
    StopReason,
    TurnRecorded,
    TurnStarted,
)


@dataclass
class RolloutOutcome:
    reason: StopReason
    turns: int
    documents: list[RankedDocument] = field(default_factory=list)
    error: str | None = None


class Rollout:
    def __init__(
        self,
        *,
        index: int,
        question: str,
        backend: InferenceBackend,
        corpus: Corpus,
        config: HarnessConfig,
        emit: Callable[[Event], None],
        count: Counter,
        cancelled: Callable[[], bool] = lambda: False,
        on_turn: Callable[[int, int], None] = lambda rollout, turn: None,
        web: Web | None = None,
    ) -> None:
        self.index, self.backend, self.config, self.emit = index, backend, config, emit
        self.tools = tool_specs(web=web is not None)
        self.context = Context(
            system=system_prompt(web=web is not None),
            question=question,
            tools=self.tools,
            count=count,
            counter_name=config.counter_name,
        )
        self.actor = Actor(index, question, corpus, self.context, config, emit, web)
        self.cancelled, self.on_turn = cancelled, on_turn
        self.level: BudgetLevel = "ok"
        self.completed: tuple[str, ...] | None = None
        self.turn = 0
        self.unusable = 0  # turns in a row the model wasted (see _unusable)

    def ranking(self) -> list[RankedDocument]:
        return rollout_ranking(self.context.chunks, self.context.live_chunk_ids(), self.completed)

    async def run(self) -> RolloutOutcome:
        reason: StopReason = "max_turns"
        for turn in range(1, self.config.max_turns + 1):
            if self.cancelled():
                reason = "cancelled"
                break
            self.turn = turn
            self.emit(TurnStarted(rollout=self.index, turn=turn))
            model_turn = await self._infer(turn)
            if not model_turn.tool_calls and model_turn.finish_reason == "length":
                self._unusable("its reply was cut at the token limit without a tool call (reasoning that did not end)")
                continue
            if not model_turn.tool_calls:
                reason = "answered"
                break
            outcome = await self.actor.act(turn, model_turn.tool_calls, hard=self.level == "hard")
            if len(outcome.unreadable) == len(model_turn.tool_calls):
                self._unusable(f"none of its tool calls could be read (last: {outcome.unreadable[-1]})")
            else:
                self.unusable = 0
            for observation in outcome.observations:
                self.context.add_observation(observation)
            self._close_turn(turn, outcome.observations)
            self.on_turn(self.index, turn)
            if outcome.completed is not None:
                self.completed, reason = outcome.completed, "completed"
                break
        return RolloutOutcome(reason=reason, turns=self.turn, documents=self.ranking())

    def _unusable(self, why: str) -> None:
        """Count a turn the model wasted; past ``max_unusable_turns`` in a row the rollout fails with why."""
        self.unusable += 1
        if self.unusable >= self.config.max_unusable_turns:
            raise ModelMisbehaving(f"the model's turns could not be used {self.unusable} times in a row: {why}")

    async def _infer(self, turn: int) -> ModelTurn:
        model_turn = await self.backend.complete(self.context.messages(), self.tools)
        self.context.add_message(
            Message("assistant", model_turn.content, model_turn.tool_calls, reasoning=model_turn.reasoning)
        )
        usage = model_turn.usage
        if usage is not None:
            self.context.record_exact(usage.prompt_tokens + usage.completion_tokens)
        self.emit(
            TurnRecorded(
                rollout=self.index,
                turn=turn,
                prompt_tokens=usage.prompt_tokens if usage else self.context.estimate(),
                completion_tokens=usage.completion_tokens if usage else 0,
                cached_tokens=usage.cached_tokens if usage else None,
                context_tokens=self.context.used(),
                exact=usage is not None,
            )
        )
        return model_turn

    def _close_turn(self, turn: int, observations: list[Observation]) -> None:
        """Put the usage line (and a budget notice when a tier is crossed) on the turn's last observation."""
        used = self.context.used()
        level = budget.level(used, self.config.budget)
        notes = [budget.usage_line(used, self.config.budget)]
        if level != self.level:
            self.emit(
                BudgetLevelChanged(
                    rollout=self.index, turn=turn, level=level, used=used, limit=self.config.budget.limit
                )
            )
            if level == "soft" and self.config.budget.soft_nudge:
                notes.append(budget.SOFT_NUDGE)
            if level == "hard":
                notes.append(budget.HARD_NOTICE)
            self.level = level
        if observations:
            self.context.set_footer(observations[-1], "\n".join(notes))
