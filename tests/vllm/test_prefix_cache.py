"""vLLM's prefix cache turn after turn, before and after a prune, measured through the backend.

The tiny model picks its own tools, so a scripted search, search, search, prune sequence cannot be a harness
run. This test drives the harness's own ``Context`` (system prompt, tool schemas, observations rendered in
the chunk wire format, pruning to stubs) and sends each turn's messages to the real server with
``OpenAICompatBackend``, recording ``usage.prompt_tokens_details.cached_tokens``. vLLM reuses whole blocks
before the first changed token, so after a prune only the blocks before the pruned chunk can be reused.
The figures go to test-artifacts/vllm_prefix_cache.json; only structural facts are asserted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
import pytest

from research.harness import budget
from research.harness.context import Context, Observation
from research.harness.messages import Message, ModelTurn, ToolSpec, Usage
from research.harness.prompts import SYSTEM_PROMPT
from research.harness.run import estimate_tokens
from research.harness.tools import TOOL_SPECS
from research.inference.openai_wire import messages_to_wire
from research.protocol import wire
from tests.vllm.corpus import DOCUMENTS
from tests.vllm.server import MakeBackend, VllmServer

pytestmark = pytest.mark.vllm

QUESTION = "How much of the prompt can the serving engine reuse after the agent prunes a chunk?"
REPLY_TOKENS = 64
SEARCHES = 3  # observations of one chunk each (three 32-token blocks); the prune hits the second one


async def prompt_tokens(server: VllmServer, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> list[int]:
    """The prompt's token ids, as vLLM renders it (``POST /tokenize``, the body the backend sends)."""
    body = {
        "model": server.model,
        "messages": messages_to_wire(messages, send_reasoning=False),
        "add_generation_prompt": True,
        "tools": [tool.as_openai() for tool in tools],
    }
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30.0) as client:
        response = await client.post("/tokenize", json=body)
    response.raise_for_status()
    tokens = response.json()["tokens"]
    assert all(isinstance(token, int) for token in tokens)
    return list(tokens)


def common_prefix(first: Sequence[int], second: Sequence[int]) -> int:
    for position, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            return position
    return min(len(first), len(second))


def chunks() -> list[wire.WireChunk]:
    """The corpus's chunks in document order, scored as a search would rank them."""
    texts = [(doc, index, text) for doc, chunk_texts in DOCUMENTS.items() for index, text in enumerate(chunk_texts)]
    return [
        wire.WireChunk(f"{doc}#{index}", doc, doc.title(), round(1 / rank, 4), text)
        for rank, (doc, index, text) in enumerate(texts, start=1)
    ]


async def test_prefix_cache_reuse_per_turn_before_and_after_a_prune(
    vllm_server: VllmServer, make_backend: MakeBackend, figures: dict[str, Any]
) -> None:
    backend = make_backend(max_tokens=REPLY_TOKENS)
    context = Context(system=SYSTEM_PROMPT, question=QUESTION, tools=TOOL_SPECS, count=estimate_tokens)
    available = iter(chunks())
    rows: list[dict[str, Any]] = []
    sent: list[list[int]] = []

    async def turn(phase: str) -> ModelTurn:
        messages = context.messages()
        tokens = await prompt_tokens(vllm_server, messages, TOOL_SPECS)
        model_turn = await backend.complete(messages, TOOL_SPECS)
        usage = model_turn.usage
        assert isinstance(usage, Usage), "vLLM reports usage for every call"
        assert isinstance(usage.cached_tokens, int), "--enable-prompt-tokens-details reports cached_tokens"
        assert usage.prompt_tokens == len(tokens), "/tokenize and usage agree on the prompt"
        assert 0 <= usage.cached_tokens <= usage.prompt_tokens
        assert usage.prompt_tokens + REPLY_TOKENS <= vllm_server.max_model_len
        assert model_turn.tool_calls, f"the tiny model calls a tool whenever tools are offered: {model_turn}"
        sent.append(tokens)
        rows.append(
            {
                "turn": len(rows) + 1,
                "phase": phase,
                "prompt_tokens": usage.prompt_tokens,
                "cached_tokens": usage.cached_tokens,
                "ratio": round(usage.cached_tokens / usage.prompt_tokens, 3),
            }
        )
        context.add_message(Message("assistant", model_turn.content, model_turn.tool_calls))
        context.record_exact(usage.prompt_tokens + usage.completion_tokens)
        return model_turn

    def observe(model_turn: ModelTurn, header: str, shown: list[wire.WireChunk]) -> Observation:
        call = model_turn.tool_calls[0]
        observation = Observation(call_id=call.id, tool=call.name, header=header, chunks=shown)
        context.add_observation(observation)
        context.set_footer(observation, budget.usage_line(context.used(), budget.BudgetConfig()))
        return observation

    # Growing: each turn's prompt is the last one plus the model's call and a search result of one chunk.
    observations = []
    for _ in range(SEARCHES):
        model_turn = await turn("growing")
        observations.append(observe(model_turn, "search_corpus('sub-question'): 1 new chunk(s).", [next(available)]))
    model_turn = await turn("growing")

    # The model's next call is answered as if it had pruned the chunk in the middle of the transcript.
    pruned = observations[1].chunks[0]
    before = context.messages()
    outcome = context.prune([pruned.chunk_id])
    assert outcome.pruned == (pruned.chunk_id,)
    after_prune = context.messages()
    first_change = common_prefix(
        await prompt_tokens(vllm_server, before, TOOL_SPECS), await prompt_tokens(vllm_server, after_prune, TOOL_SPECS)
    )
    observe(model_turn, f"Pruned 1 chunk(s), freeing about {outcome.freed_tokens:,} tokens.", [])
    model_turn = await turn("after prune")
    assert common_prefix(sent[-2], sent[-1]) == first_change, "the prune is the first change since the last turn"
    observe(model_turn, "grep_corpus('result is ok'): 0 new chunk(s).", [])
    await turn("turn after the prune")

    block = vllm_server.block_size
    growing = [row for row in rows if row["phase"] == "growing"]
    after, next_turn = rows[-2], rows[-1]
    assert any(row["cached_tokens"] > 0 for row in growing), "the prefix cache reused nothing while the prompt grew"
    assert after["cached_tokens"] <= first_change + block, "reuse reached past the first changed token"
    assert first_change < after["prompt_tokens"]

    figures["prefix_cache"] = {
        "question": QUESTION,
        "turns": rows,
        "prune": {
            "chunk_id": pruned.chunk_id,
            "first_changed_token": first_change,
            "reusable_tokens": first_change // block * block,
            "freed_tokens_estimate": outcome.freed_tokens,
        },
        "ratio_before_prune": round(
            sum(row["cached_tokens"] for row in growing[1:]) / sum(row["prompt_tokens"] for row in growing[1:]), 3
        ),
        "ratio_after_prune": after["ratio"],
        "ratio_turn_after": next_turn["ratio"],
    }
