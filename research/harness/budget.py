"""The token budget: tiers, the usage line, and the exact texts the model sees at each tier."""

from __future__ import annotations

from dataclasses import dataclass

from research.protocol.events import BudgetLevel

SOFT_NUDGE = (
    "You have used more than half of your token budget. Prune chunks that do not help answer the question "
    "with prune_chunks, or finish with complete."
)
DEFAULT_BUDGET = 32_768  # tokens per rollout, as in the Context-1 report
SOFT_FRACTION = 0.5  # past half the budget the model is urged to prune or finish
HARD_FRACTION = 0.85  # past this fraction only prune_chunks and complete are allowed

HARD_NOTICE = (
    "You are past the hard token limit: only prune_chunks and complete are available. "
    "Prune irrelevant chunks or complete with your ranking."
)


@dataclass(frozen=True)
class BudgetConfig:
    limit: int = DEFAULT_BUDGET
    soft_fraction: float = SOFT_FRACTION
    hard_fraction: float = HARD_FRACTION  # between soft and 1.0
    soft_nudge: bool = True  # the report shows the nudge only in training: it can be switched off
    reply_reserve: int = 1_024  # kept free for the model's next reply when sizing tool results

    def __post_init__(self) -> None:
        if self.limit < 1_000:
            raise ValueError("the token budget must be at least 1,000")
        if not 0 < self.soft_fraction <= self.hard_fraction <= 1.0:
            raise ValueError("need 0 < soft_fraction <= hard_fraction <= 1")
        if self.hard_fraction < 0.5:
            raise ValueError("the hard cutoff must lie between half the budget and the limit")

    @property
    def soft_threshold(self) -> int:
        return int(self.limit * self.soft_fraction)

    @property
    def hard_threshold(self) -> int:
        return int(self.limit * self.hard_fraction)


def level(used: int, config: BudgetConfig) -> BudgetLevel:
    if used >= config.hard_threshold:
        return "hard"
    if used >= config.soft_threshold:
        return "soft"
    return "ok"


def usage_line(used: int, config: BudgetConfig) -> str:
    return f"[Token usage: {used:,}/{config.limit:,}]"


def refusal(tool: str) -> str:
    return f"Error: {tool} is refused past the hard token limit. Use prune_chunks to free space, or complete."


def room_for_tool_result(used: int, config: BudgetConfig) -> int:
    """Tokens a tool result may take: what is left under the limit, less the reply reserve."""
    return max(0, config.limit - used - config.reply_reserve)
