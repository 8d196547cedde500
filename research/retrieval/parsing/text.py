"""Plain text and Markdown files: the text is kept as it is; a Markdown title is its first heading. YAML front matter
(a "---" block opening the file) is metadata, not text: its date, title, author and publisher are kept as the
document's metadata and the block is left out of the text."""

from __future__ import annotations

import datetime
import itertools
import re

import yaml
from markdown_it import MarkdownIt

from research.retrieval.parsing.common import OutputBudget, Source
from research.retrieval.parsing.types import ParsedDocument, ParseOptions, ParseOutcome

_HEADING_SEARCH_CHARS = 65_536


def parse_text(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    return _single(source, budget, title=source.stem, kind="text")


_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_LINE_FIELD = re.compile(r"(?m)^([A-Za-z_][\w-]*):[ \t]+(\S.*?)[ \t]*$")
FRONT_MATTER_FIELDS = {"date": "date", "updated": "date", "title": "title", "author": "author"}
FRONT_MATTER_FIELDS |= {"publisher": "publisher", "company": "publisher", "source": "source"}


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """A Markdown file's YAML front matter as metadata (the fields above, dates ISO), and the text after it; no
    metadata and the whole text when there is none or it is not a YAML mapping."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, text
    try:
        fields = yaml.safe_load(match.group(1))
    except yaml.YAMLError:  # "title: Battlecard: Tjalkwerf" is not YAML, but is what people write
        fields = dict(_LINE_FIELD.findall(match.group(1)))
    if not isinstance(fields, dict) or not fields:
        return {}, text
    metadata: dict[str, str] = {}
    for key, value in fields.items():
        name = FRONT_MATTER_FIELDS.get(str(key).casefold())
        if name and value is not None and not isinstance(value, dict | list):
            iso = value.isoformat() if isinstance(value, datetime.date) else str(value).strip()
            metadata.setdefault(name, iso)
    return metadata, text[match.end() :]


def parse_markdown(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    metadata, body = front_matter(source.text)
    title = metadata.pop("title", None) or first_heading(body) or source.stem
    text = budget.charge(body)
    document = ParsedDocument(
        title=title, text=text, source_name=source.name, doc_key="", metadata=metadata, kind="markdown"
    )
    return ParseOutcome(source_name=source.name, documents=[document], errors=[])


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
