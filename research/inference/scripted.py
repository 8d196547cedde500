"""A scripted backend for tests and evaluations: replays given turns, or asks a function for each turn."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

from research.harness.messages import Message, ModelTurn, ToolCall, ToolSpec
from research.harness.ports import DeltaCallback, InferenceError
from research.inference.registry import BackendFactory, InferenceSettings
from research.protocol import wire

TurnFunction = Callable[[Sequence[Message], Sequence[ToolSpec]], ModelTurn | Exception]
_ids = itertools.count(1)


def call(name: str, arguments: dict[str, Any] | str) -> ToolCall:
    """A tool call with a fresh id; pass a string to script malformed arguments."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCall(id=f"call_{next(_ids)}", name=name, arguments=raw)


def turn(*calls: ToolCall, content: str = "") -> ModelTurn:
    return ModelTurn(content=content, tool_calls=tuple(calls), finish_reason="tool_calls" if calls else "stop")


class ScriptedBackend:
    """Returns ``script`` turns in order (then a final answer), or calls ``script`` for each turn."""

    def __init__(self, script: Sequence[ModelTurn | Exception] | TurnFunction, *, latency: float = 0.0) -> None:
        self._script = script
        self._position = 0
        self.latency = latency
        self.requests: list[list[Message]] = []  # what the harness sent, turn by turn

    @property
    def name(self) -> str:
        return "scripted"

    async def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], *, on_delta: DeltaCallback | None = None
    ) -> ModelTurn:
        self.requests.append(list(messages))
        if self.latency:
            await asyncio.sleep(self.latency)
        if callable(self._script):
            result = self._script(messages, tools)
        elif self._position < len(self._script):
            result = self._script[self._position]
        else:
            result = ModelTurn(content="Done.")
        self._position += 1
        if isinstance(result, Exception):
            raise result
        if not isinstance(result, ModelTurn):
            raise InferenceError(f"scripted turn {self._position} is not a ModelTurn")
        if on_delta is not None and result.content:
            on_delta(result.content)
        return result


def search_then_complete(messages: Sequence[Message], tools: Sequence[ToolSpec]) -> ModelTurn:
    """The default policy: search the question once, then complete with what came back, in order."""
    if not any(message.role == "assistant" for message in messages):
        question = next(message.content for message in messages if message.role == "user")
        return turn(call("search_corpus", {"query": question}))
    seen = [c.chunk_id for m in messages if m.role == "tool" for c in wire.parse(m.content)]
    return turn(call("complete", {"ranked_chunk_ids": seen})) if seen else turn(content="Nothing found.")


def factory(settings: InferenceSettings) -> BackendFactory:
    """The registry's entry: every rollout follows :func:`search_then_complete` (what a single search finds)."""
    return lambda rollout: ScriptedBackend(search_then_complete)
