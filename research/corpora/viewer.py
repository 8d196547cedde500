"""The document viewer's chunks: text as written, or Markdown rendered safely (document text is untrusted)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from research.corpora import selectors
from research.models import Document


@dataclass(frozen=True)
class ShownChunk:
    chunk_id: str
    index: int
    tokens: int
    text: str
    html: SafeString | None  # rendered Markdown; None: the template shows ``text`` with its line breaks


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


def chunks_shown(*, document: Document) -> list[ShownChunk]:
    """The document's chunks in order, Markdown ones rendered (each chunk alone: chunks end at paragraphs)."""
    markdown = document.kind == "markdown"
    return [
        ShownChunk(c.chunk_id, c.index, c.tokens, c.text, markdown_html(c.text) if markdown else None)
        for c in selectors.chunk_list(document=document)
    ]
