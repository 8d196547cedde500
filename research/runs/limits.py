"""What a member may ask of a run: the one definition of each limit, used by the form, the services and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from research.harness.budget import DEFAULT_BUDGET, SOFT_FRACTION
from research.harness.config import DEFAULT_MAX_TURNS, DEFAULT_ROLLOUTS, MAX_ROLLOUTS


@dataclass(frozen=True)
class Limit:
    """An inclusive range of whole numbers with its default and the words that name it in errors."""

    low: int
    high: int
    default: int
    label: str

    def error(self, value: int) -> str | None:
        """What is wrong with ``value`` (None when it is in range)."""
        if self.low <= value <= self.high:
            return None
        return f"{self.label} must be between {self.low:,} and {self.high:,}."


ROLLOUTS = Limit(1, MAX_ROLLOUTS, DEFAULT_ROLLOUTS, "Rollouts")
BUDGET = Limit(4_096, 131_072, DEFAULT_BUDGET, "The token budget")
MAX_TURNS = Limit(1, 64, DEFAULT_MAX_TURNS, "Maximum turns")
QUESTION_MAX = 4_000  # characters


def budget_thresholds() -> tuple[int, int]:
    """Where the soft threshold and the hard cutoff lie, in percent of a rollout's budget (the page's gauges)."""
    return round(100 * SOFT_FRACTION), round(100 * settings.BUDGET_HARD_FRACTION)
