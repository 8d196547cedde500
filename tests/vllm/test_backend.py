"""``OpenAICompatBackend`` against vLLM's real OpenAI-compatible server (hermes tool parser, SSE, errors)."""

from __future__ import annotations

import json

import pytest

from research.harness.messages import Message, ToolSpec
from research.harness.ports import InferenceError, InferenceUnavailable
from research.harness.tools import TOOL_SPECS, parse_call
from research.protocol import wire
from tests.vllm.corpus import DOCUMENTS
from tests.vllm.server import MakeBackend
from tests.vllm.tiny_model import MAX_LEN

pytestmark = pytest.mark.vllm

QUESTION = [
    Message("system", "You find the documents that answer the question."),
    Message("user", "Which blocks does the serving engine reuse between turns?"),
]
STREAMING = pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])


def only(name: str) -> list[ToolSpec]:
    return [spec for spec in TOOL_SPECS if spec.name == name]


def answered(messages: list[Message], call_message: Message) -> list[Message]:
    """The conversation after the model's call, with a search result for it."""
    call = call_message.tool_calls[0]
    chunk = wire.WireChunk("runbook#0", "runbook", "Runbook", 0.5, DOCUMENTS["runbook"][0])
    content = f"search_corpus('blocks'): 1 new chunk(s).\n\n{wire.render(chunk)}"
    result = Message("tool", content, tool_call_id=call.id, name=call.name)
    return [*messages, call_message, result]


@STREAMING
async def test_a_plain_turn_is_text_with_exact_usage(make_backend: MakeBackend, stream: bool) -> None:
    deltas: list[str] = []
    turn = await make_backend(stream=stream).complete(QUESTION, [], on_delta=deltas.append)
    assert turn.content == "result is ok"
    assert turn.tool_calls == ()
    assert turn.finish_reason == "stop"
    assert turn.usage is not None
    assert turn.usage.prompt_tokens > 0
    assert turn.usage.completion_tokens > 0
    assert isinstance(turn.usage.cached_tokens, int)
    if stream:
        assert len(deltas) > 1
        assert "".join(deltas) == turn.content
    else:
        assert deltas == []


@STREAMING
async def test_vllms_hermes_parser_returns_a_schema_valid_call(make_backend: MakeBackend, stream: bool) -> None:
    deltas: list[str] = []
    turn = await make_backend(stream=stream).complete(QUESTION, TOOL_SPECS, on_delta=deltas.append)
    assert turn.finish_reason == "tool_calls"
    assert turn.content.strip() == ""
    assert "".join(deltas).strip() == ""  # the call's text never reaches the user as content
    assert len(turn.tool_calls) == 1
    call = turn.tool_calls[0]
    assert call.id
    parsed = parse_call(call)  # the harness's own validation: a known tool, a JSON object, the schema
    assert (call.name, parsed.arguments) == ("search_corpus", {"query": "result is ok"})
    assert json.loads(call.arguments) == parsed.arguments
    assert turn.usage is not None
    assert turn.usage.completion_tokens > 0


@STREAMING
async def test_with_one_tool_offered_the_call_is_to_that_tool(make_backend: MakeBackend, stream: bool) -> None:
    turn = await make_backend(stream=stream).complete(QUESTION, only("prune_chunks"))
    assert [call.name for call in turn.tool_calls] == ["prune_chunks"]
    assert parse_call(turn.tool_calls[0]).arguments == {"chunk_ids": ["result is ok"]}


@STREAMING
async def test_after_a_tool_result_the_next_call_follows_the_conversation(
    make_backend: MakeBackend, stream: bool
) -> None:
    backend = make_backend(stream=stream)
    first = await backend.complete(QUESTION, TOOL_SPECS)
    messages = answered(QUESTION, Message("assistant", first.content, first.tool_calls))
    second = await backend.complete(messages, TOOL_SPECS)
    assert [call.name for call in second.tool_calls] == ["grep_corpus"]
    assert parse_call(second.tool_calls[0]).arguments == {"pattern": "result is ok"}
    assert second.tool_calls[0].id != first.tool_calls[0].id
    assert second.usage is not None
    assert first.usage is not None
    assert second.usage.prompt_tokens > first.usage.prompt_tokens


@STREAMING
async def test_an_unknown_model_is_a_permanent_error(make_backend: MakeBackend, stream: bool) -> None:
    with pytest.raises(InferenceError) as failure:
        await make_backend(model="no-such-model", stream=stream).complete(QUESTION, [])
    assert not isinstance(failure.value, InferenceUnavailable)
    assert "HTTP 404" in str(failure.value)
    assert "no-such-model" in str(failure.value)


@STREAMING
async def test_max_tokens_past_the_context_window_is_a_permanent_error(make_backend: MakeBackend, stream: bool) -> None:
    with pytest.raises(InferenceError) as failure:
        await make_backend(max_tokens=MAX_LEN + 1, stream=stream).complete(QUESTION, [])
    assert not isinstance(failure.value, InferenceUnavailable)
    assert "HTTP 400" in str(failure.value)


async def test_a_prompt_longer_than_the_context_window_is_a_permanent_error(make_backend: MakeBackend) -> None:
    too_long = [*QUESTION, Message("user", "blocks " * (MAX_LEN + 100))]
    with pytest.raises(InferenceError) as failure:
        await make_backend().complete(too_long, TOOL_SPECS)
    assert not isinstance(failure.value, InferenceUnavailable)
    assert "HTTP 400" in str(failure.value)


@pytest.mark.parametrize("with_tools", [True, False], ids=["tools", "no-tools"])
async def test_tokenize_counts_exactly_the_prompt_tokens_the_server_bills(
    make_backend: MakeBackend, with_tools: bool
) -> None:
    backend = make_backend(stream=False)
    tools = TOOL_SPECS if with_tools else ()
    first = await backend.complete(QUESTION, TOOL_SPECS)
    messages = answered(QUESTION, Message("assistant", first.content, first.tool_calls))
    counted = await backend.tokenize(messages, tools)
    turn = await backend.complete(messages, tools)
    assert turn.usage is not None
    assert counted == turn.usage.prompt_tokens
