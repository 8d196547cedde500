from __future__ import annotations

import pytest

from research.harness import budget
from research.harness.budget import BudgetConfig


def test_the_usage_line_is_exact() -> None:
    assert budget.usage_line(14_203, BudgetConfig()) == "[Token usage: 14,203/32,768]"
    assert budget.usage_line(0, BudgetConfig(limit=8_000)) == "[Token usage: 0/8,000]"


@pytest.mark.parametrize(
    ("used", "expected"),
    [(0, "ok"), (16_383, "ok"), (16_384, "soft"), (27_851, "soft"), (27_852, "hard"), (40_000, "hard")],
)
def test_tiers_change_at_exact_boundaries(used: int, expected: str) -> None:
    config = BudgetConfig()  # soft at 16,384 (half), hard at 27,852 (85 %)
    assert (config.soft_threshold, config.hard_threshold) == (16_384, 27_852)
    assert budget.level(used, config) == expected


def test_the_hard_cutoff_must_lie_between_half_and_the_limit() -> None:
    with pytest.raises(ValueError, match="between half"):
        BudgetConfig(soft_fraction=0.3, hard_fraction=0.4)
    with pytest.raises(ValueError):
        BudgetConfig(hard_fraction=1.2)
    assert BudgetConfig(soft_fraction=0.5, hard_fraction=1.0).hard_threshold == 32_768


def test_the_refusal_and_notices_are_exact() -> None:
    assert budget.refusal("search_corpus") == (
        "Error: search_corpus is refused past the hard token limit. Use prune_chunks to free space, or complete."
    )
    assert budget.SOFT_NUDGE.startswith("You have used more than half of your token budget.")
    assert "only prune_chunks and complete are available" in budget.HARD_NOTICE


def test_room_for_a_tool_result_keeps_the_reply_reserve() -> None:
    config = BudgetConfig(limit=10_000, reply_reserve=1_000)
    assert budget.room_for_tool_result(2_000, config) == 7_000
    assert budget.room_for_tool_result(9_500, config) == 0
