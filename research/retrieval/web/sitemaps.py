"""Reading a sitemap (sitemaps.org): the page addresses of a ``<urlset>``, or of the sitemaps a ``<sitemapindex>``
lists, parsed with defusedxml (no entities, no external references: a sitemap is untrusted input)."""

from __future__ import annotations

from collections.abc import Callable

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from research.retrieval.web import WebError

CHILD_SITEMAPS = 5  # sitemaps of an index read at most


def _locs(xml: bytes) -> tuple[str, list[str]]:
    """(the root element's name, its <loc> addresses)."""
    try:
        root = ElementTree.fromstring(xml)
    except (ElementTree.ParseError, DefusedXmlException) as error:
        raise WebError(f"not a sitemap: {error}") from None
    name = root.tag.rsplit("}", 1)[-1]
    locs = [(element.text or "").strip() for element in root.iter() if element.tag.rsplit("}", 1)[-1] == "loc"]
    return name, [loc for loc in locs if loc.startswith(("http://", "https://"))]


def sitemap_pages(xml: bytes, *, limit: int, fetch: Callable[[str], bytes]) -> list[str]:
    """The page addresses of a sitemap, at most ``limit``, in its order; an index's child sitemaps are read with
    ``fetch`` (the guarded fetcher, so every rule applies to them too)."""
    kind, locs = _locs(xml)
    if kind == "urlset":
        return list(dict.fromkeys(locs))[:limit]
    if kind != "sitemapindex":
        raise WebError(f"not a sitemap: its root element is <{kind}>")
    pages: list[str] = []
    for child in locs[:CHILD_SITEMAPS]:
        child_kind, child_locs = _locs(fetch(child))
        if child_kind == "urlset":
            pages += child_locs
        if len(pages) >= limit:
            break
    return list(dict.fromkeys(pages))[:limit]
