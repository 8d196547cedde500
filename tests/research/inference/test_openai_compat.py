"""The OpenAI-compatible backend against a real local server: turns, tool calls, streaming, usage, reasoning."""

from __future__ import annotations

import json
from typing import Any

import pytest

from research.harness.messages import Message, ToolCall, ToolSpec, Usage
from research.inference.openai_compat import OpenAICompatBackend
from tests.support.openai_server import MODEL, Call, OpenAIServer, Reply, serve_openai

SEARCH = ToolSpec(
    "search_corpus", "Search the corpus.", {"type": "object", "properties": {"query": {"type": "string"}}}
)
GREP = ToolSpec("grep_corpus", "Grep the corpus.", {"type": "object", "properties": {"pattern": {"type": "string"}}})
READ = ToolSpec("read_document", "Read a document.", {"type": "object", "properties": {"doc_id": {"type": "string"}}})
QUESTION = [Message("system", "You find documents."), Message("user", "Who founded Acme?")]
THREE_CALLS = [
    Call("search_corpus", '{"query": "founders of Acme"}'),
    Call("grep_corpus", '{"pattern": "Acme (Inc|Ltd)"}'),
    Call("read_document", '{"doc_id": "d-17"}'),
]


def backend_for(server: OpenAIServer, **settings: Any) -> OpenAICompatBackend:
    return OpenAICompatBackend(base_url=server.base_url, model=MODEL, backoff=0, **settings)


async def test_it_streams_a_plain_text_turn() -> None:
    with serve_openai([Reply(content="Acme was founded by Ada.", usage=(20, 6, None))]) as server:
        turn = await backend_for(server).complete(QUESTION, [])
    assert (turn.content, turn.tool_calls, turn.reasoning) == ("Acme was founded by Ada.", (), None)
    assert (turn.finish_reason, turn.usage) == ("stop", Usage(20, 6, None))
    [request] = server.requests
    assert request["model"] == MODEL
    assert (request["stream"], request["stream_options"]) == (True, {"include_usage": True})
    assert request["messages"] == [
        {"role": "system", "content": "You find documents."},
        {"role": "user", "content": "Who founded Acme?"},
    ]
    assert "tools" not in request
    assert "tool_choice" not in request


async def test_it_reads_a_plain_text_turn_without_streaming() -> None:
    with serve_openai([Reply(content="Ada.", usage=(20, 2, None))]) as server:
        turn = await backend_for(server, stream=False).complete(QUESTION, [])
    assert (turn.content, turn.finish_reason, turn.usage) == ("Ada.", "stop", Usage(20, 2, None))
    assert server.requests[0]["stream"] is False
    assert "stream_options" not in server.requests[0]


@pytest.mark.parametrize("stream", [True, False])
async def test_it_returns_several_tool_calls_of_one_turn(stream: bool) -> None:
    with serve_openai([Reply(tool_calls=THREE_CALLS, piece=3)]) as server:
        turn = await backend_for(server, stream=stream).complete(QUESTION, [SEARCH, GREP, READ])
    assert turn.tool_calls == (
        ToolCall("chatcmpl-tool-1-0", "search_corpus", '{"query": "founders of Acme"}'),
        ToolCall("chatcmpl-tool-1-1", "grep_corpus", '{"pattern": "Acme (Inc|Ltd)"}'),
        ToolCall("chatcmpl-tool-1-2", "read_document", '{"doc_id": "d-17"}'),
    )
    assert (turn.content, turn.finish_reason) == ("", "tool_calls")
    assert server.requests[0]["tools"] == [SEARCH.as_openai(), GREP.as_openai(), READ.as_openai()]
    assert server.requests[0]["tool_choice"] == "auto"


async def test_it_passes_content_pieces_to_on_delta_in_order() -> None:
    deltas: list[str] = []
    reply = Reply(content="Ada and Grace founded it.", reasoning="Think it over.", piece=5)
    with serve_openai([reply]) as server:
        turn = await backend_for(server).complete(QUESTION, [], on_delta=deltas.append)
    assert deltas == ["Ada a", "nd Gr", "ace f", "ounde", "d it."]
    assert "".join(deltas) == turn.content
    assert turn.reasoning == "Think it over."


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize(("reported", "expected"), [(768, 768), (0, 0), (None, None)])
async def test_it_reports_cached_prompt_tokens(stream: bool, reported: int | None, expected: int | None) -> None:
    with serve_openai([Reply(content="ok", usage=(900, 40, reported))]) as server:
        turn = await backend_for(server, stream=stream).complete(QUESTION, [])
    assert turn.usage == Usage(prompt_tokens=900, completion_tokens=40, cached_tokens=expected)


async def _search_then_answer(field: str, **settings: Any) -> list[dict[str, Any]]:
    """Two turns: a search with reasoning, then the answer; returns the messages of the second request."""
    first = Reply(reasoning="I should search for the founders.", reasoning_field=field, tool_calls=THREE_CALLS[:1])
    with serve_openai([first, Reply(content="Ada.")]) as server:
        backend = backend_for(server, **settings)
        turn = await backend.complete(QUESTION, [SEARCH])
        assert turn.reasoning == "I should search for the founders."
        said = Message("assistant", turn.content, tool_calls=turn.tool_calls, reasoning=turn.reasoning)
        found = Message("tool", "[d-17] Ada founded Acme.", tool_call_id=turn.tool_calls[0].id, name="search_corpus")
        await backend.complete([*QUESTION, said, found], [SEARCH])
    messages: list[dict[str, Any]] = server.requests[1]["messages"]
    return messages


@pytest.mark.parametrize("stream", [True, False])
@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
async def test_it_keeps_reasoning_but_does_not_send_it_back(stream: bool, field: str) -> None:
    messages = await _search_then_answer(field, stream=stream)
    assistant = messages[2]
    assert assistant["role"] == "assistant"
    assert "reasoning" not in assistant
    assert "reasoning_content" not in assistant
    assert "search for the founders" not in json.dumps(messages)


async def test_it_sends_reasoning_back_when_asked() -> None:
    messages = await _search_then_answer("reasoning", send_reasoning=True)
    assistant = messages[2]
    assert assistant["reasoning"] == assistant["reasoning_content"] == "I should search for the founders."


async def test_it_maps_a_whole_conversation_to_chat_messages() -> None:
    calls = (ToolCall("c1", "search_corpus", '{"query": "Acme"}'), ToolCall("c2", "read_document", '{"doc_id": "d"}'))
    conversation = [
        *QUESTION,
        Message("assistant", "Let me look.", tool_calls=calls, reasoning="hidden"),
        Message("tool", "[d-17] Ada founded Acme.", tool_call_id="c1", name="search_corpus"),
        Message("tool", "Acme history ...", tool_call_id="c2", name="read_document"),
        Message("assistant", "Ada founded Acme."),
        Message("user", "And when?"),
    ]
    with serve_openai(lambda request: Reply(content=f"{len(request['messages'])} messages")) as server:
        turn = await backend_for(server).complete(conversation, [SEARCH, READ])
    assert turn.content == "7 messages"
    assert server.requests[0]["messages"][2:] == [
        {
            "role": "assistant",
            "content": "Let me look.",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "search_corpus", "arguments": '{"query": "Acme"}'},
                },
                {"id": "c2", "type": "function", "function": {"name": "read_document", "arguments": '{"doc_id": "d"}'}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "[d-17] Ada founded Acme."},
        {"role": "tool", "tool_call_id": "c2", "content": "Acme history ..."},
        {"role": "assistant", "content": "Ada founded Acme."},
        {"role": "user", "content": "And when?"},
    ]


@pytest.mark.parametrize("stream", [True, False])
async def test_it_passes_malformed_tool_arguments_through(stream: bool) -> None:
    broken = [Call("search_corpus", '{"query": "unterminated'), Call("grep_corpus", "not json at all")]
    with serve_openai([Reply(tool_calls=broken, piece=2)]) as server:
        turn = await backend_for(server, stream=stream).complete(QUESTION, [SEARCH, GREP])
    assert [call.arguments for call in turn.tool_calls] == ['{"query": "unterminated', "not json at all"]


@pytest.mark.parametrize("stream", [True, False])
async def test_it_gives_calls_without_an_id_stable_ids_unique_in_the_conversation(stream: bool) -> None:
    earlier = (ToolCall("call_0", "search_corpus", "{}"), ToolCall("call_1", "search_corpus", "{}"))
    conversation = [
        *QUESTION,
        Message("assistant", tool_calls=earlier),
        Message("tool", "a", tool_call_id="call_0"),
        Message("tool", "b", tool_call_id="call_1"),
    ]
    anonymous = Reply(tool_calls=[Call("search_corpus", "{}", id=None), Call("grep_corpus", "{}", id=None)])
    with serve_openai([anonymous, anonymous]) as server:
        backend = backend_for(server, stream=stream)
        turns = [await backend.complete(conversation, [SEARCH, GREP]) for _ in range(2)]
    assert [call.id for call in turns[0].tool_calls] == ["call_2", "call_3"]
    assert turns[0] == turns[1]


async def test_it_merges_sampling_settings_extra_body_and_the_api_key() -> None:
    with serve_openai([Reply(content="ok")]) as server:
        backend = backend_for(
            server, temperature=0.0, max_tokens=256, api_key="sk-test", extra_body={"max_tokens": 512, "top_p": 0.9}
        )
        await backend.complete(QUESTION, [])
    request, headers = server.requests[0], {k.lower(): v for k, v in server.headers[0].items()}
    assert (request["temperature"], request["max_tokens"], request["top_p"]) == (0.0, 512, 0.9)
    assert headers["authorization"] == "Bearer sk-test"
    assert backend.name == f"openai_compat:{MODEL}"


async def test_it_counts_prompt_tokens_with_the_tokenize_endpoint() -> None:
    with serve_openai([]) as server:
        count = await backend_for(server).tokenize(QUESTION, [SEARCH])
    assert count == 6  # the stub counts words: "You find documents." + "Who founded Acme?"
    [request] = server.tokenize_requests
    assert (request["model"], request["messages"][1]["content"]) == (MODEL, "Who founded Acme?")
    assert request["tools"] == [SEARCH.as_openai()]


async def test_it_counts_nothing_when_the_server_has_no_tokenize_endpoint() -> None:
    with serve_openai([], tokenize=False) as server:
        assert await backend_for(server).tokenize(QUESTION) is None
