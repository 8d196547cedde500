"""HTML pages: the main text, boilerplate (navigation, footers, scripts, cookie banners, lists of links) dropped.

A page that marks its main content (``<main>``) is read from there, every block in the page's order, and so is a
page with neither ``<main>`` nor ``<article>``, from its body
(``main_text``): a company's site writes its facts in sections, cards and lists ("Four tools, one login" with each
product's heading; "by the numbers"; the leadership team), and trafilatura, built for news articles, kept the first
card and dropped or reordered the rest (193 of 1,945 blocks of the report benchmark's pages, 2026-12-06). Other
pages, and every page's metadata (title, date, author), are trafilatura's. A footer's head-office line ("Siège
social : 12 rue ..., Montpellier") is kept: it is often the only place a site says where the company is."""

from __future__ import annotations

import html as html_module
import re
from collections import Counter
from dataclasses import dataclass

import lxml.html
import trafilatura
from lxml import etree
from trafilatura.settings import Document

from research.retrieval.parsing.common import OutputBudget, Source, compact_metadata
from research.retrieval.parsing.text import HEAD_OFFICE_LABELS, header_date
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
# a line of its own, or its part after a separator ("Kaikaro Software Limited · Registered office: ...", "Samvida
# Technologies Pvt. Ltd., registered office: ...", "(company number 6654321). Head office: ...")
_HEAD_OFFICE_LINE = re.compile(
    rf"(?im)^(?:[^\n]{{0,160}}?[\u00b7|\u2022,.;][ \t]*|[ \t]*)"
    rf"((?:{HEAD_OFFICE_LABELS})[ \t]*[:\u2013-][ \t]*\S[^\n]{{3,150}})$"
)


# a sentence that says where it is ("Votre contrat est conclu avec Lucarne Logiciels inc., dont le siège social est
# situé à Sherbrooke (Québec)", "Our head office is in Graz.")
_HEAD_OFFICE_SENTENCE = re.compile(
    rf"(?im)^[ \t]*([^\n]{{0,200}}\b(?:{HEAD_OFFICE_LABELS})\b[^\n]{{0,30}}?"
    r"\b(?:est situ[ée]e?|se trouve|is (?:located|based)|is|in|à|au)\b[^\n]{3,150})$"
)


def head_office_lines(html: str, text: str) -> list[str]:
    """The page's "Siège social : ...", "Registered office: ..." lines and sentences that say where its head office
    is, that its main text left out (a footer's)."""
    plain = html_module.unescape(_TAG.sub("", _BLOCK_TAG.sub("\n", html)))
    found = [*_HEAD_OFFICE_LINE.finditer(plain), *_HEAD_OFFICE_SENTENCE.finditer(plain)]
    lines = dict.fromkeys(" ".join(match.group(1).split()) for match in found)
    kept = " ".join(text.split())
    return [line for line in lines if line not in kept and not any(line in other for other in lines if other != line)]


# Never content: scripts, forms and controls, navigation.
_NOT_TEXT = ("script", "style", "noscript", "template", "svg", "form", "button", "nav", "iframe", "select", "dialog")
# What a block's class, id or role says it is when it is no content, word by word ("cookie-banner", "share_bar";
# not "shareholders").
_BOILERPLATE = frozenset(
    """cookie cookies consent gdpr newsletter subscribe share sharing social breadcrumb breadcrumbs related readmore
    comment comments advert adverts advertisement sponsor sponsored dialog modal popup navigation""".split()
)
_BOILERPLATE_PAIRS = ("read more", "more from")
_MARK_WORDS = re.compile(r"[\s_-]+")
# Each of these is a line of its own; a list item opens with "- ", a table row is "| a | b |".
_LINES = frozenset(
    "p li h1 h2 h3 h4 h5 h6 blockquote figcaption caption dt dd pre address div section article header footer"
    " aside main tr figure table ul ol dl br hr".split()
)
LINK_LIST_ITEMS = 3  # a list of at least this many items, each a link and little else, is a menu or "read also"


def _boilerplate(element: etree._Element) -> bool:
    marks = " ".join(str(element.get(name, "")) for name in ("class", "id", "role", "aria-label")).casefold()
    words = [word for word in _MARK_WORDS.split(marks) if word]
    joined = " ".join(words)
    return (
        any(word in _BOILERPLATE for word in words)
        or any(pair in joined for pair in _BOILERPLATE_PAIRS)
        or element.get("aria-hidden") == "true"
    )


def _mostly_link(element: etree._Element) -> bool:
    text = " ".join(element.text_content().split())
    linked = sum(len(" ".join(a.text_content().split())) for a in element.iter("a"))
    return bool(text) and linked >= 0.8 * len(text)


def _link_lists(container: etree._Element) -> list[etree._Element]:
    """Lists whose items are each a link and little else (related articles, a footer menu)."""
    found = []
    for listing in container.iter("ul", "ol"):
        items = [child for child in listing if child.tag == "li"]
        if len(items) >= LINK_LIST_ITEMS and all(_mostly_link(item) for item in items):
            found.append(listing)
    return found


def _lines(element: etree._Element, out: list[str]) -> None:
    """The element's text, a line per block, in the page's order."""
    if element.tag == "tr":
        cells = [" ".join(cell.text_content().split()) for cell in element if cell.tag in ("td", "th")]
        out += [f"| {' | '.join(cells)} |", *(["|" + "---|" * len(cells)] if element.find("th") is not None else [])]
        out.append("")
        return
    block = element.tag in _LINES
    if block:
        out.append("- " if element.tag == "li" else "")
    out[-1] += element.text or ""
    for child in element:
        if isinstance(child.tag, str):
            _lines(child, out)
        out[-1] += child.tail or ""
    if block:
        out.append("")


def _content_roots(tree: etree._Element) -> list[etree._Element]:
    """The page's ``<main>`` elements; for a page with neither ``<main>`` nor ``<article>`` (a hand-made price
    page), its body without the page's own header and footer (trafilatura dropped its headings and list items:
    "Essentiel : 79 € HT par mois"); none for an article."""
    mains: list[etree._Element] = tree.xpath("//main")
    if mains or tree.xpath("//article"):
        return mains
    for element in tree.xpath("//body/header | //body/footer | //body/*/header | //body/*/footer"):
        element.drop_tree()
    return list(tree.xpath("//body"))


def main_text(html: str) -> str | None:
    """The text of the page's ``<main>`` element(s), a line per block in the page's order, without what is never
    content (``_NOT_TEXT``), blocks marked as boilerplate (``_BOILERPLATE``: a cookie banner, share buttons,
    "related") and lists of links; a page with neither ``<main>`` nor ``<article>`` is read the same way from its
    body, without its header and footer; None for an article (trafilatura's reading, built for them)."""
    try:
        tree = lxml.html.fromstring(html)
    except (etree.ParserError, ValueError):
        return None
    mains = _content_roots(tree)
    if not mains:
        return None
    out = [""]
    for main in mains:
        doomed = [e for e in main.iter() if isinstance(e.tag, str) and (e.tag in _NOT_TEXT or _boilerplate(e))]
        for element in [*doomed, *_link_lists(main)]:
            if element.getparent() is not None:
                element.drop_tree()
        try:
            _lines(main, out)
        except RecursionError:  # markup nested deeper than any page writes it: trafilatura's reading instead
            return None
    lines = (" ".join(line.split()) for line in out)
    return "\n".join(line for line in lines if line and line != "-")


def _stated(date: str | None, html: str) -> str | None:
    """A date trafilatura found, when the page writes its year: htmldate also reads dates into other figures (a
    Japanese address's "2-4-11" block number became 2 April 2011)."""
    return date if date and date[:4] in html else None


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
    text = main_text(html) or ((extracted.text or "") if extracted is not None else "")
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
            "date": _stated(extracted.date, html) or header_date(text),  # its meta date, else its first lines
            "description": extracted.description,
            "sitename": extracted.sitename,
            "language": extracted.language,
            "publisher": publisher_of(html),
        }
    )
    return Page(text=text, title=extracted.title, metadata=metadata)
