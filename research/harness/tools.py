"""The tools offered to the model: JSON-schema specs, argument validation, and calls to the corpus."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from research.harness.messages import ToolCall, ToolSpec
from research.protocol.events import COMPLETE, FETCH, GREP, PRUNE, READ, SEARCH, WEB_SEARCH

ALWAYS_ALLOWED = frozenset({PRUNE, COMPLETE})  # still available past the hard token limit

TEXT_MAX_CHARS = 1000  # the longest query or pattern a tool accepts
_STRING = {"type": "string", "minLength": 1, "maxLength": TEXT_MAX_CHARS}
_IDS = {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200}, "minItems": 1, "maxItems": 200}

TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        SEARCH,
        "Hybrid BM25 + dense search of the corpus; returns unseen chunks, best first.",
        {"type": "object", "properties": {"query": _STRING}, "required": ["query"], "additionalProperties": False},
    ),
    ToolSpec(
        GREP,
        "Regular-expression search of chunk text (up to 5 unseen chunks).",
        {"type": "object", "properties": {"pattern": _STRING}, "required": ["pattern"], "additionalProperties": False},
    ),
    ToolSpec(
        READ,
        "Read a document's unseen chunks, most relevant to the question first.",
        {"type": "object", "properties": {"doc_id": _STRING}, "required": ["doc_id"], "additionalProperties": False},
    ),
    ToolSpec(
        PRUNE,
        "Remove chunks from your context to free token budget.",
        {"type": "object", "properties": {"chunk_ids": _IDS}, "required": ["chunk_ids"], "additionalProperties": False},
    ),
    ToolSpec(
        COMPLETE,
        "Finish: the chunk ids that support the answer, most useful first.",
        {
            "type": "object",
            "properties": {"ranked_chunk_ids": _IDS},
            "required": ["ranked_chunk_ids"],
            "additionalProperties": False,
        },
    ),
)
URL_MAX_CHARS = 2000
WEB_TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        WEB_SEARCH,
        "Search the web; returns result titles, addresses and snippets (fetch a page to read it).",
        {"type": "object", "properties": {"query": _STRING}, "required": ["query"], "additionalProperties": False},
    ),
    ToolSpec(
        FETCH,
        "Fetch a web page (http or https) into the run's web corpus; returns its unseen chunks.",
        {
            "type": "object",
            "properties": {"url": {"type": "string", "minLength": 1, "maxLength": URL_MAX_CHARS}},
            "required": ["url"],
            "additionalProperties": False,
        },
    ),
)
_SPECS = {spec.name: spec for spec in TOOL_SPECS + WEB_TOOL_SPECS}


def tool_specs(*, web: bool) -> tuple[ToolSpec, ...]:
    """The tools offered: the corpus tools, and the web tools when the run has web sources (appended, so the
    corpus tools' part of the prompt stays byte-identical)."""
    return TOOL_SPECS + WEB_TOOL_SPECS if web else TOOL_SPECS


class ToolArgumentError(ValueError):
    """The model's call cannot be run as written; the message goes back to it as an error observation."""


@dataclass(frozen=True)
class ParsedCall:
    call: ToolCall
    arguments: dict[str, Any]

    @property
    def key(self) -> tuple[str, str]:
        """Identity for repeated-call detection: the tool and its normalised arguments."""
        return self.call.name, json.dumps(self.arguments, sort_keys=True).lower()

    @property
    def subject(self) -> str:
        """What the call is about, as text (the sub-query, pattern, document id or chunk ids)."""
        value = next(iter(self.arguments.values()), "")
        return ", ".join(value) if isinstance(value, list) else str(value)


def parse_call(call: ToolCall, *, offered: tuple[ToolSpec, ...] = TOOL_SPECS) -> ParsedCall:
    """The call's arguments, validated against its tool's schema; only the ``offered`` tools exist."""
    names = [spec.name for spec in offered]
    spec = _SPECS.get(call.name) if call.name in names else None
    if spec is None:
        raise ToolArgumentError(f"Error: unknown tool {call.name!r}. Available: {', '.join(names)}.")
    try:
        arguments = json.loads(call.arguments or "{}")
    except json.JSONDecodeError as error:
        raise ToolArgumentError(f"Error: the arguments of {call.name} are not valid JSON ({error.msg}).") from None
    if not isinstance(arguments, dict):
        raise ToolArgumentError(f"Error: the arguments of {call.name} must be a JSON object.")
    _validate(spec, arguments)
    return ParsedCall(call, arguments)


def _validate(spec: ToolSpec, arguments: dict[str, Any]) -> None:
    properties: dict[str, Any] = spec.parameters["properties"]
    missing = [name for name in spec.parameters["required"] if name not in arguments]
    extra = [name for name in arguments if name not in properties]
    if missing or extra:
        problem = f"missing {', '.join(missing)}" if missing else f"unexpected {', '.join(extra)}"
        raise ToolArgumentError(f"Error: {spec.name} arguments: {problem}. Expected: {', '.join(properties)}.")
    for name, schema in properties.items():
        _check(spec.name, name, arguments[name], schema)


def _check(tool: str, name: str, value: Any, schema: dict[str, Any]) -> None:
    if schema["type"] == "string":
        if not isinstance(value, str) or not value.strip():
            raise ToolArgumentError(f"Error: {tool}.{name} must be a non-empty string.")
        if len(value) > schema["maxLength"]:
            raise ToolArgumentError(f"Error: {tool}.{name} is longer than {schema['maxLength']} characters.")
        return
    if not isinstance(value, list) or not value or not all(isinstance(item, str) and item for item in value):
        raise ToolArgumentError(f"Error: {tool}.{name} must be a non-empty list of chunk id strings.")
    if len(value) > schema["maxItems"]:
        raise ToolArgumentError(f"Error: {tool}.{name} has more than {schema['maxItems']} items.")
