"""HTML pages: the main text extracted by trafilatura, boilerplate (navigation, footers, scripts) dropped."""

from __future__ import annotations

import re
from dataclasses import dataclass

import trafilatura
from trafilatura.settings import Document

from research.retrieval.parsing.common import OutputBudget, Source, compact_metadata
from research.retrieval.parsing.types import ParsedDocument, ParseError, ParseOptions, ParseOutcome

# Only dates a page states (meta tags, structured data); no guesses from copyright lines or URLs.
_DATE_PARAMS = {"extensive_search": False, "original_date": True}


@dataclass(frozen=True)
class Page:
    """The main text of an HTML page and what trafilatura found about it."""

    text: str
    title: str | None
    metadata: dict[str, str]


def parse_html(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    page = extract_page(source.text)
    if not page.text.strip():
        raise ParseError("no text found in the HTML page")
    document = ParsedDocument(
        title=page.title or source.stem,
        text=budget.charge(page.text),
        source_name=source.name,
        doc_key="",
        metadata=page.metadata,
        kind="html",
    )
    return ParseOutcome(source_name=source.name, documents=[document], errors=[])


_TIME_TAG = re.compile(r"</?time\b[^>]*>", re.IGNORECASE)


def extract_page(html: str) -> Page:
    """Main-content extraction; pages too small or odd for it fall back to trafilatura's plain conversion.

    ``<time>`` elements are unwrapped first: trafilatura drops them inside some blocks, and with them the
    dates a page states ("Prices last updated <time>January 6, 2026</time>." became "... updated .")."""
    html = _TIME_TAG.sub("", html)
    found = trafilatura.bare_extraction(
        html,
        with_metadata=True,
        include_comments=False,
        include_tables=True,
        date_extraction_params=_DATE_PARAMS,
    )
    extracted = found if isinstance(found, Document) else None
    text = (extracted.text or "") if extracted is not None else ""
    if not text.strip():
        text = trafilatura.html2txt(html)
    if not text.strip() and "<" not in html:
        text = html  # no markup at all: lxml finds no tree, but the words are there
    if extracted is None:
        return Page(text=text, title=None, metadata={})
    metadata = compact_metadata(
        {
            "author": extracted.author,
            "date": extracted.date,
            "description": extracted.description,
            "sitename": extracted.sitename,
            "language": extracted.language,
        }
    )
    return Page(text=text, title=extracted.title, metadata=metadata)
