"""Whole harness runs against vLLM: the tiny model picks its own tools, turn after turn, with exact usage."""

from __future__ import annotations

import json
from typing import Any

import pytest

from research.harness.acting import REPEAT_NUDGE
from research.harness.budget import BudgetConfig
from research.harness.config import HarnessConfig
from research.harness.ports import ListSink
from research.harness.run import run_research
from research.harness.tools import TOOL_SPECS
from research.protocol.events import RolloutFinished, RunFinished, ToolCalled, ToolReturned, TurnRecorded
from tests.vllm.corpus import DOCUMENTS, TinyCorpus
from tests.vllm.server import MakeBackend
from tests.vllm.tiny_model import MAX_LEN

pytestmark = pytest.mark.vllm

QUESTION = "Which cached blocks does the serving engine reuse after the agent prunes a chunk?"
MAX_TURNS = 4
REPLY_TOKENS = 64


def config(rollouts: int) -> HarnessConfig:
    """A budget the size of the server's context window; one chunk a search, so four turns stay near 1,500 tokens."""
    return HarnessConfig(
        rollouts=rollouts,
        max_turns=MAX_TURNS,
        budget=BudgetConfig(limit=MAX_LEN, reply_reserve=256),
        search_tokens=120,
        read_tokens=120,
    )


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
@pytest.mark.parametrize("rollouts", [1, 2])
async def test_a_whole_run_against_vllm(
    make_backend: MakeBackend, figures: dict[str, Any], rollouts: int, stream: bool
) -> None:
    corpus = TinyCorpus(DOCUMENTS)
    sink = ListSink()
    backend = make_backend(stream=stream, max_tokens=REPLY_TOKENS)
    result = await run_research(
        question=QUESTION, corpus=corpus, backend_for=lambda index: backend, config=config(rollouts), sink=sink
    )
    events = sink.events

    assert result.status == "finished", result.error
    finished = [event for event in events if isinstance(event, RolloutFinished)]
    assert sorted(event.rollout for event in finished) == list(range(rollouts))
    assert all(event.reason != "failed" and event.turns >= 3 for event in finished), finished
    assert isinstance(events[-1], RunFinished)
    assert events[-1].rollouts_ok == rollouts

    recorded = [event for event in events if isinstance(event, TurnRecorded)]
    assert len(recorded) == sum(event.turns for event in finished)
    for event in recorded:
        assert event.exact, event
        assert event.prompt_tokens > 0
        assert event.completion_tokens > 0
        assert isinstance(event.cached_tokens, int)
        assert 0 <= event.cached_tokens <= event.prompt_tokens
        assert event.prompt_tokens + REPLY_TOKENS <= MAX_LEN
    for rollout in range(rollouts):
        prompts = [event.prompt_tokens for event in recorded if event.rollout == rollout]
        assert prompts == sorted(prompts), "a rollout's transcript only grows when nothing is pruned"

    names = {spec.name for spec in TOOL_SPECS}
    calls = [event for event in events if isinstance(event, ToolCalled)]
    assert calls
    for call in calls:  # every call came out of vLLM's hermes parser as a known tool with JSON object arguments
        assert call.tool in names
        assert isinstance(json.loads(call.arguments), dict)
    returned = [event for event in events if isinstance(event, ToolReturned)]
    assert {event.error for event in returned} <= {None, REPEAT_NUDGE}
    assert any(event.chunks for event in returned)
    assert corpus.calls
    assert result.documents

    if stream:
        figures.setdefault("harness_runs", {})[f"{rollouts}_rollout{'s' if rollouts > 1 else ''}"] = {
            str(rollout): [
                {
                    "turn": event.turn,
                    "prompt_tokens": event.prompt_tokens,
                    "cached_tokens": event.cached_tokens,
                    "tool_calls": [call.tool for call in calls if call.rollout == rollout and call.turn == event.turn],
                }
                for event in recorded
                if event.rollout == rollout
            ]
            for rollout in range(rollouts)
        }
