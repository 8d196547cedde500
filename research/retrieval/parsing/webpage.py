"""HTML pages: the main text extracted by trafilatura, boilerplate (navigation, footers, scripts) dropped; a
footer's head-office line ("Siège social : 12 rue ..., Montpellier") is kept: it is often the only place a site says
where the company is."""

from __future__ import annotations

import html as html_module
import re
from collections import Counter
from dataclasses import dataclass

import trafilatura
from trafilatura.settings import Document

from research.retrieval.parsing.common import OutputBudget, Source, compact_metadata
from research.retrieval.parsing.text import HEAD_OFFICE_LABELS
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
_TAG = re.compile(r"<[^>]+>")
# "(c) 2026 Tjalkwerf Payments B.V.", "© 2025-2026 Brightwell People Ltd. All rights reserved", "Copyright 2026 ..."
_COPYRIGHT = re.compile(
    r"(?:\u00a9|\(c\)|copyright)\s*(?:\d{4}(?:\s*[-\u2013]\s*\d{4})?)?[\s,]*([A-Z][^|\n<]{1,80}?)"
    r"\s*(?:\.?\s*(?:all rights|tous droits)|\||\n|$)",
    re.IGNORECASE,
)
_HREF_HOST = re.compile(r"""href=["']https?://(?:www\.)?([a-z0-9.-]+)""", re.IGNORECASE)


def publisher_of(html: str) -> str | None:
    """Who a page says published it, for telling a company's own pages (research.writing.names): its copyright
    line and the host most of its absolute links go to (a site links to itself), joined by "; ". Not its title: a
    news site's article is titled with the company it is about."""
    found: list[str] = []
    plain = html_module.unescape(_TAG.sub("\n", html))
    found += [" ".join(match.group(1).split()).rstrip(" .,") for match in _COPYRIGHT.finditer(plain)][-1:]
    hosts = Counter(host.casefold().rstrip(".") for host in _HREF_HOST.findall(html))
    if hosts:
        host, count = hosts.most_common(1)[0]
        found += [host] if count * 2 >= sum(hosts.values()) else []
    return "; ".join(dict.fromkeys(item for item in found if item)) or None


_BLOCK_TAG = re.compile(
    r"(?i)<(?:br|/?(?:p|div|li|ul|ol|footer|section|header|address|h[1-6]|tr|td|th|table|article|nav|aside))\b[^>]*>"
)
_HEAD_OFFICE_LINE = re.compile(rf"(?im)^[ \t]*((?:{HEAD_OFFICE_LABELS})[ \t]*[:\u2013-][ \t]*\S[^\n]{{3,150}})$")


def head_office_lines(html: str, text: str) -> list[str]:
    """The page's "Siège social : ...", "Registered office: ..." lines that its main text left out (a footer's)."""
    plain = html_module.unescape(_TAG.sub("", _BLOCK_TAG.sub("\n", html)))
    lines = dict.fromkeys(" ".join(match.group(1).split()) for match in _HEAD_OFFICE_LINE.finditer(plain))
    kept = " ".join(text.split())
    return [line for line in lines if line not in kept]


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
    text = "\n".join([text, *head_office_lines(html, text)]) if text.strip() else text
    if extracted is None:
        return Page(text=text, title=None, metadata={})
    metadata = compact_metadata(
        {
            "author": extracted.author,
            "date": extracted.date,
            "description": extracted.description,
            "sitename": extracted.sitename,
            "language": extracted.language,
            "publisher": publisher_of(html),
        }
    )
    return Page(text=text, title=extracted.title, metadata=metadata)
