"""parse_bytes: detect a file's kind and hand it to the parser of that family (imported only when needed)."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from research.retrieval.parsing.common import OutputBudget, Source
from research.retrieval.parsing.detect import sniff
from research.retrieval.parsing.types import Kind, ParseError, ParseOptions, ParseOutcome

Parser = Callable[[Source, ParseOptions, OutputBudget], ParseOutcome]
DEFAULT_OPTIONS = ParseOptions()
_ERRORS_SHOWN = 3
_PARSERS: dict[Kind, tuple[str, str]] = {
    "text": ("text", "parse_text"),
    "markdown": ("text", "parse_markdown"),
    "html": ("webpage", "parse_html"),
    "pdf": ("pdf", "parse_pdf"),
    "docx": ("word", "parse_docx"),
    "email": ("mail", "parse_email"),
    "csv": ("tabular", "parse_csv"),
    "json": ("records", "parse_json"),
}


def parse_bytes(name: str, data: bytes, options: ParseOptions = DEFAULT_OPTIONS) -> ParseOutcome:
    """Every document in one file; raises ParseError when the file as a whole cannot be used."""
    sniffed = sniff(name, data)
    parser = parser_for(sniffed.kind)
    source = Source(name=name, data=data, decoded=sniffed.text)
    outcome = parser(source, options, OutputBudget(options.max_output_chars))
    if not outcome.documents:
        raise ParseError(_nothing_usable(outcome.errors))
    return outcome


def parser_for(kind: Kind) -> Parser:
    """The parser of one kind; each family's libraries load on first use, so a parse imports only what it needs."""
    module_name, function_name = _PARSERS[kind]
    parser: Parser = getattr(importlib.import_module(f"{__package__}.{module_name}"), function_name)
    return parser


def _nothing_usable(errors: list[str]) -> str:
    if not errors:
        return "no text found in the file"
    shown = "; ".join(errors[:_ERRORS_SHOWN])
    more = f" (and {len(errors) - _ERRORS_SHOWN} more)" if len(errors) > _ERRORS_SHOWN else ""
    return f"nothing usable in the file: {shown}{more}"
