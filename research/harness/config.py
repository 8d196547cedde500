"""Harness configuration: a frozen value built by the composition root (the harness never reads settings)."""

from __future__ import annotations

from dataclasses import dataclass, field

from research.harness.budget import BudgetConfig


@dataclass(frozen=True)
class HarnessConfig:
    budget: BudgetConfig = field(default_factory=BudgetConfig)
    rollouts: int = 4
    max_turns: int = 16
    search_tokens: int = 3_000  # most tokens one search_corpus or grep_corpus result may take
    read_tokens: int = 6_000  # most tokens one read_document result may take
    top_k: int = 10  # documents in the final ranking
    counter_name: str = ""  # the name of the counter ``count`` implements (see CorpusHit.tokens); "" = none

    def __post_init__(self) -> None:
        if not 1 <= self.rollouts <= 8:
            raise ValueError("rollouts must be between 1 and 8")
        if self.max_turns < 1:
            raise ValueError("max_turns must be at least 1")
