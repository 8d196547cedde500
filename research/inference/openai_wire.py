"""The OpenAI chat-completions wire format: harness messages out, replies and stream chunks back in as turns."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from research.harness.messages import Message, ModelTurn, ToolCall, Usage
from research.harness.ports import DeltaCallback, InferenceError, InferenceUnavailable

Json = dict[str, Any]


def messages_to_wire(messages: Sequence[Message], *, send_reasoning: bool) -> list[Json]:
    """The chat messages to send; reasoning goes back to the model only when ``send_reasoning`` is set."""
    return [_message_to_wire(message, send_reasoning=send_reasoning) for message in messages]


def _message_to_wire(message: Message, *, send_reasoning: bool) -> Json:
    if message.role == "tool":
        if not message.tool_call_id:
            raise ValueError("a tool message needs the tool_call_id of the call it answers")
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    wire: Json = {"role": message.role, "content": message.content}
    if message.role != "assistant":
        return wire
    if message.tool_calls:
        wire["content"] = message.content or None
        wire["tool_calls"] = [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in message.tool_calls
        ]
    if send_reasoning and message.reasoning:
        # vLLM reads ``reasoning`` since it renamed the field (vllm PR 27752); older servers read ``reasoning_content``.
        wire["reasoning"] = wire["reasoning_content"] = message.reasoning
    return wire


def error_message(body: str) -> str:
    """The server's own words from an error body (OpenAI, vLLM or FastAPI shape), at most 300 characters."""
    try:
        payload = json.loads(body)
    except ValueError:
        return body[:300]
    if isinstance(payload, dict):
        error = payload.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:300]
        for key in ("message", "detail"):
            if payload.get(key):
                return str(payload[key])[:300]
        if isinstance(error, str) and error:
            return error[:300]
    return body[:300]


def usage_from(raw: Any) -> Usage | None:
    """``usage`` of a reply; ``cached_tokens`` stays None when the server does not report it (0 is a measurement)."""
    if not isinstance(raw, dict):
        return None
    details = raw.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    try:
        return Usage(
            prompt_tokens=int(raw.get("prompt_tokens") or 0),
            completion_tokens=int(raw.get("completion_tokens") or 0),
            cached_tokens=None if cached is None else int(cached),
        )
    except (TypeError, ValueError):
        raise InferenceError(f"malformed usage in the reply: {json.dumps(raw)[:200]}") from None


def turn_from_reply(payload: Any, *, first_call_number: int) -> ModelTurn:
    """The turn in a non-streamed reply (``choices[0].message``)."""
    choices = payload.get("choices") if isinstance(payload, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise InferenceError(f"the reply has no choices: {json.dumps(payload)[:200]}")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise InferenceError(f"the reply's first choice has no message: {json.dumps(choices[0])[:200]}")
    return ModelTurn(
        content=_text(message.get("content")),
        tool_calls=_calls_in_reply(message.get("tool_calls"), first_call_number),
        reasoning=_text(message.get("reasoning") or message.get("reasoning_content")) or None,
        usage=usage_from(payload.get("usage")),
        finish_reason=str(choices[0].get("finish_reason") or "stop"),
    )


def _calls_in_reply(raw_calls: Any, first_call_number: int) -> tuple[ToolCall, ...]:
    if not isinstance(raw_calls, list):
        if raw_calls:
            raise InferenceError(f"the reply's tool_calls is not a list: {json.dumps(raw_calls)[:200]}")
        return ()
    calls = []
    for position, raw in enumerate(raw_calls):
        function = raw.get("function") if isinstance(raw, dict) else None
        if not isinstance(function, dict):
            raise InferenceError(f"malformed tool call in the reply: {json.dumps(raw)[:200]}")
        arguments = function.get("arguments")
        calls.append(_tool_call(raw.get("id"), function.get("name"), arguments, first_call_number + position))
    return tuple(calls)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _tool_call(call_id: Any, name: Any, arguments: Any, number: int) -> ToolCall:
    """A tool call as the model wrote it: arguments stay raw text (malformed JSON is the harness's to report)."""
    if arguments is not None and not isinstance(arguments, str):
        arguments = json.dumps(arguments)
    return ToolCall(id=call_id or f"call_{number}", name=_text(name), arguments=arguments or "")


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


SSE_FIELDS = ("event:", "id:", "retry:", ":")  # the other lines an event stream may hold


class StreamAssembler:
    """Folds the SSE lines of one streamed reply into a turn, passing content pieces to ``on_delta`` as they come.

    Tool-call fragments are joined by ``index`` (id and name come first, the arguments in pieces); usage comes
    from the last chunk (``stream_options.include_usage``). A chunk that is not JSON or carries an ``error``
    raises; ``complete`` tells whether the reply got as far as a finish reason or ``[DONE]``.
    """

    def __init__(self, on_delta: DeltaCallback | None, *, first_call_number: int) -> None:
        self._on_delta, self._first_call_number = on_delta, first_call_number
        self._content: list[str] = []
        self._reasoning: list[str] = []
        self._calls: dict[int, _PartialCall] = {}
        self._usage: Usage | None = None
        self._finish_reason: str | None = None
        self.done = False  # saw ``data: [DONE]``
        self.started = False  # saw any ``data:`` line
        self.stray = ""  # text before the first event that no event stream holds: a proxy's page, not the API

    @property
    def complete(self) -> bool:
        return self.done or self._finish_reason is not None

    def feed_line(self, line: str) -> None:
        if not line.startswith("data:"):  # blank separators, ``event:`` and ``:`` comment lines carry nothing here
            if not self.started and line.strip() and not line.startswith(SSE_FIELDS):
                self.stray = f"{self.stray} {line.strip()}".strip()[:200]
            return
        self.started = True
        data = line[5:].strip()
        if data == "[DONE]":
            self.done = True
            return
        try:
            chunk = json.loads(data)
        except ValueError:
            raise InferenceError(f"malformed stream chunk (not JSON): {data[:200]!r}") from None
        if not isinstance(chunk, dict):
            raise InferenceError(f"malformed stream chunk (not an object): {data[:200]!r}")
        self._feed_chunk(chunk)

    def _feed_chunk(self, chunk: Json) -> None:
        if chunk.get("error"):
            error = chunk["error"]
            code = error.get("code") if isinstance(error, dict) else None
            failure = InferenceUnavailable if isinstance(code, int) and code >= 500 else InferenceError
            raise failure(f"the server reported an error mid-stream: {error_message(json.dumps(chunk))}")
        self._usage = usage_from(chunk.get("usage")) or self._usage
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            if isinstance(delta, dict):
                self._feed_delta(delta)
            self._finish_reason = choice.get("finish_reason") or self._finish_reason

    def _feed_delta(self, delta: Json) -> None:
        reasoning = _text(delta.get("reasoning") or delta.get("reasoning_content"))
        if reasoning:
            self._reasoning.append(reasoning)
        content = _text(delta.get("content"))
        if content:
            self._content.append(content)
            if self._on_delta is not None:
                self._on_delta(content)
        for fragment in delta.get("tool_calls") or []:
            if isinstance(fragment, dict):
                self._feed_call_fragment(fragment)

    def _feed_call_fragment(self, fragment: Json) -> None:
        index = fragment.get("index")
        if not isinstance(index, int):  # no index: a fragment with an id opens a new call, others extend the last
            index = max(self._calls, default=-1) + (1 if fragment.get("id") or not self._calls else 0)
        call = self._calls.setdefault(index, _PartialCall())
        call.id = call.id or _text(fragment.get("id"))
        function = fragment.get("function")
        if isinstance(function, dict):
            call.name = call.name or _text(function.get("name"))
            arguments = function.get("arguments")
            if arguments:
                call.arguments.append(arguments if isinstance(arguments, str) else json.dumps(arguments))

    def turn(self) -> ModelTurn:
        calls = tuple(
            _tool_call(partial.id, partial.name, "".join(partial.arguments), self._first_call_number + position)
            for position, (_, partial) in enumerate(sorted(self._calls.items()))
        )
        return ModelTurn(
            content="".join(self._content),
            tool_calls=calls,
            reasoning="".join(self._reasoning) or None,
            usage=self._usage,
            finish_reason=str(self._finish_reason or "stop"),
        )
