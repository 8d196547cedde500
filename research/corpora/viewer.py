"""The document viewer's chunks: text as written, or Markdown rendered safely (document text is untrusted)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from research.corpora import selectors
from research.models import Document
from research.writing.text import quote_span


@dataclass(frozen=True)
class ShownChunk:
    chunk_id: str
    index: int
    tokens: int
    text: str
    html: SafeString | None  # rendered Markdown; None: the template shows ``text`` with its line breaks
    marked: SafeString | None = None  # plain text with a cited quote in <mark> (escaped); None: no quote found


def _link_open(renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    tokens[idx].attrSet("rel", "nofollow noopener noreferrer")
    return str(renderer.renderToken(tokens, idx, options, env))


@cache
def _markdown() -> MarkdownIt:
    """CommonMark with raw HTML off (written as text), markdown-it's link check (no javascript:, vbscript:, file:
    or data: URLs) and no images (an image would load a URL of the document's choosing)."""
    parser = MarkdownIt("commonmark", {"html": False}).disable("image")
    parser.add_render_rule("link_open", _link_open)
    return parser


def markdown_html(text: str) -> SafeString:
    """Safe HTML for untrusted Markdown: every tag comes from the renderer, every text is escaped by it."""
    return mark_safe(str(_markdown().render(text)))  # noqa: S308 - markdown-it escapes all text; raw HTML is off


def marked(text: str, quote: str) -> SafeString | None:
    """``text`` escaped, with ``quote`` (as a citation matches it) in a <mark>; None when it is not there."""
    span = quote_span(text, quote)
    if span is None:
        return None
    start, end = span
    return format_html('{}<mark class="quote">{}</mark>{}', text[:start], text[start:end], text[end:])


def chunks_shown(*, document: Document, quote: str = "", cited: frozenset[str] = frozenset()) -> list[ShownChunk]:
    """The document's chunks in order, Markdown ones rendered (each chunk alone: chunks end at paragraphs);
    in the ``cited`` chunks of a plain-text document, ``quote`` is marked where it occurs."""
    markdown = document.kind == "markdown"
    return [
        ShownChunk(
            c.chunk_id,
            c.index,
            c.tokens,
            c.text,
            markdown_html(c.text) if markdown else None,
            marked(c.text, quote) if quote and not markdown and c.chunk_id in cited else None,
        )
        for c in selectors.chunk_list(document=document)
    ]
