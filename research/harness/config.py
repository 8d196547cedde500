"""Harness configuration: a frozen value built by the composition root (the harness never reads settings)."""

from __future__ import annotations

from dataclasses import dataclass, field

from research.harness.budget import BudgetConfig

MAX_ROLLOUTS = 8  # the most a free question may ask for
MAX_RUN_ROLLOUTS = 16  # a report runs one rollout per facet or criterion, all at once
DEFAULT_ROLLOUTS = 4  # "Context-1 (4x)": four rollouts fused by RRF
DEFAULT_MAX_TURNS = 16
DEFAULT_TOP_K = 10  # documents in the final ranking
# A model whose turns cannot be used (every tool call malformed, or a reply cut at its token limit with no call:
# reasoning that does not end) this many turns in a row fails its rollout with the cause, instead of spending
# the run's turns on nothing.
MAX_UNUSABLE_TURNS = 3


@dataclass(frozen=True)
class HarnessConfig:
    budget: BudgetConfig = field(default_factory=BudgetConfig)
    rollouts: int = DEFAULT_ROLLOUTS
    max_turns: int = DEFAULT_MAX_TURNS
    search_tokens: int = 3_000  # most tokens one search_corpus or grep_corpus result may take
    read_tokens: int = 6_000  # most tokens one read_document result may take
    top_k: int = DEFAULT_TOP_K
    counter_name: str = ""  # the name of the counter ``count`` implements (see CorpusHit.tokens); "" = none
    max_unusable_turns: int = MAX_UNUSABLE_TURNS

    def __post_init__(self) -> None:
        if not 1 <= self.rollouts <= MAX_RUN_ROLLOUTS:
            raise ValueError(f"rollouts must be between 1 and {MAX_RUN_ROLLOUTS}")
        if self.max_turns < 1:
            raise ValueError("max_turns must be at least 1")
