"""What crosses the sandbox boundary: the request (file name, options, probe) and the reply, as JSON."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Literal

from research.retrieval.parsing.types import ParsedDocument, ParseError, ParseOptions, ParseOutcome

Probe = Literal["memory", "cpu", "sleep", "segfault", "exception"]
PROBES: tuple[Probe, ...] = ("memory", "cpu", "sleep", "segfault", "exception")
MEMORY_EXIT_CODE = 86  # the child ran out of memory (MemoryError under RLIMIT_AS)


def request_to_json(name: str, options: ParseOptions, probe: Probe | None) -> str:
    return json.dumps({"name": name, "options": dataclasses.asdict(options), "probe": probe})


def request_from_json(text: str) -> tuple[str, ParseOptions, Probe | None]:
    raw = json.loads(text)
    fields = dict(raw["options"])
    fields["json_metadata_fields"] = tuple(fields.get("json_metadata_fields", ()))
    probe = raw.get("probe")
    return str(raw["name"]), ParseOptions(**fields), probe if probe in PROBES else None


def outcome_to_json(outcome: ParseOutcome) -> str:
    return json.dumps({"outcome": dataclasses.asdict(outcome)}, ensure_ascii=False)


def failure_to_json(error: ParseError) -> str:
    return json.dumps({"error": error.reason}, ensure_ascii=False)


def reply_from_json(text: str) -> ParseOutcome:
    """The child's outcome; its ParseError is raised again here; a reply of the wrong shape is a crash."""
    try:
        raw = json.loads(text)
        if isinstance(raw, dict) and isinstance(raw.get("error"), str):
            failure: str = raw["error"]
        else:
            return _outcome(raw["outcome"])
    except (ValueError, KeyError, TypeError) as error:
        raise ParseError(f"parser crashed: its reply could not be read ({type(error).__name__})") from None
    raise ParseError(failure)


def _outcome(raw: Any) -> ParseOutcome:
    documents = [_document(item) for item in raw["documents"]]
    errors = [_text(error) for error in raw["errors"]]
    fields = {_text(role): _text(name) for role, name in dict(raw.get("fields", {})).items()}
    return ParseOutcome(source_name=_text(raw["source_name"]), documents=documents, errors=errors, fields=fields)


def _document(raw: Any) -> ParsedDocument:
    metadata = {_text(key): _text(value) for key, value in dict(raw["metadata"]).items()}
    return ParsedDocument(
        title=_text(raw["title"]),
        text=_text(raw["text"]),
        source_name=_text(raw["source_name"]),
        doc_key=_text(raw["doc_key"]),
        metadata=metadata,
        kind=_text(raw["kind"]),
    )


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value
