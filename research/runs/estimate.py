"""What a run will cost, shown before it starts: expected model calls and tokens, scaled by rollouts.

A model call's tokens are its prompt (the rollout's context so far) plus its reply. The expected
figures follow the Context-1 report's averages: 5.2 turns per trajectory (one model call a turn),
2.56 tool calls a turn, each search adding up to the per-search token budget to the context, which
stays under the token budget (past the hard cutoff only pruning and completing are allowed). The
maximum is every rollout using every turn with a full context. Both scale linearly with rollouts.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

REPORT_TURNS = 5.2  # turns per trajectory (Context-1 report)
REPORT_TOOL_CALLS_PER_TURN = 2.56
PROMPT_BASE_TOKENS = 1_200  # system prompt, tool schemas and the question, about
REPLY_TOKENS = 150  # a turn's reply: tool calls with their arguments, about


@dataclass(frozen=True)
class RunEstimate:
    model_calls: int
    tokens: int
    max_model_calls: int
    max_tokens: int

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def run_estimate(*, rollouts: int, budget: int, max_turns: int, search_tokens: int) -> RunEstimate:
    turns = min(max_turns, math.ceil(REPORT_TURNS))
    growth = REPORT_TOOL_CALLS_PER_TURN * search_tokens
    per_rollout = sum(min(budget, PROMPT_BASE_TOKENS + growth * turn) + REPLY_TOKENS for turn in range(turns))
    return RunEstimate(
        model_calls=rollouts * turns,
        tokens=rollouts * round(per_rollout),
        max_model_calls=rollouts * max_turns,
        max_tokens=rollouts * max_turns * (budget + REPLY_TOKENS),
    )
