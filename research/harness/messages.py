"""The conversation the harness holds with a model: messages, tool calls, tool specs, usage."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True)
class ToolCall:
    """One call the model asked for; ``arguments`` is the raw JSON text it produced (it may be malformed)."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Message:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None  # on a tool message: the call it answers
    name: str | None = None  # on a tool message: the tool's name
    reasoning: str | None = None  # on an assistant message: the model's reasoning text, kept for the record


@dataclass(frozen=True)
class ToolSpec:
    """A tool offered to the model: its name, what it does, and a JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]

    def as_openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None = None  # usage.prompt_tokens_details.cached_tokens (vLLM prefix cache), if reported


@dataclass(frozen=True)
class ModelTurn:
    """What one model call returned."""

    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning: str | None = None
    usage: Usage | None = None
    finish_reason: str = "stop"
    extra: dict[str, Any] = field(default_factory=dict)
