"""Plain text and Markdown files: the text is kept as it is; a Markdown title is its first heading."""

from __future__ import annotations

import itertools

from markdown_it import MarkdownIt

from research.retrieval.parsing.common import OutputBudget, Source
from research.retrieval.parsing.types import ParsedDocument, ParseOptions, ParseOutcome

_HEADING_SEARCH_CHARS = 65_536


def parse_text(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    return _single(source, budget, title=source.stem, kind="text")


def parse_markdown(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    return _single(source, budget, title=first_heading(source.text) or source.stem, kind="markdown")


def first_heading(markdown: str) -> str | None:
    """The plain text of the first ATX or setext heading, found by a CommonMark parser (so not inside code)."""
    head = markdown[:_HEADING_SEARCH_CHARS]
    if len(markdown) > len(head):
        head = head.rpartition("\n")[0]
    tokens = MarkdownIt("commonmark").parse(head)
    for opening, inline in itertools.pairwise(tokens):
        if opening.type == "heading_open" and inline.type == "inline":
            words = "".join(_words(child.type, child.content) for child in inline.children or [])
            if words.strip():
                return " ".join(words.split())
    return None


def _words(token_type: str, content: str) -> str:
    if token_type in {"softbreak", "hardbreak"}:
        return " "
    return content if token_type in {"text", "code_inline"} else ""


def _single(source: Source, budget: OutputBudget, *, title: str, kind: str) -> ParseOutcome:
    text = budget.charge(source.text)
    document = ParsedDocument(title=title, text=text, source_name=source.name, doc_key="", metadata={}, kind=kind)
    return ParseOutcome(source_name=source.name, documents=[document], errors=[])
