"""Web sources: search providers, and a page fetcher that only ever connects where the rules allow.

Framework-free (no Django): the Django side (research/web_sources/) stores fetched pages as documents of a workspace's
web corpus and hands the harness its web tools.
"""

from __future__ import annotations

from dataclasses import dataclass


class WebError(RuntimeError):
    """A web search or fetch that failed (the message says why, for the page and the model alike)."""


class Refused(WebError):
    """A request the rules do not allow (scheme, address, port, robots.txt, size, type); never retried.
    ``allowable``: when the address rules refused it, the allow-list entry (``host`` or ``host:port``) that would
    let it through; "" otherwise."""

    def __init__(self, message: str, allowable: str = "") -> None:
        super().__init__(message)
        self.allowable = allowable


@dataclass(frozen=True)
class SearchResult:
    url: str
    title: str
    snippet: str
    published_date: str | None = None  # ISO date, when the provider knows it
