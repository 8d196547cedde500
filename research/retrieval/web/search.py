"""Web search providers behind one small interface: a query in, ``SearchResult``s out (url, title, snippet,
published date). SearXNG's JSON API (self-hosted, the default) and Brave's Search API (hosted, by key).

A provider's address is the operator's choice (a SearXNG on the private network is normal), so provider
requests are not held to the page fetcher's address rules; the result pages are, when fetched. Connection
failures, timeouts and 5xx answers are retried twice; a malformed answer is an error at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from research.protocol.registry import Registry
from research.protocol.retry import Retry, exponential
from research.retrieval.web import SearchResult, WebError

LIMIT = 8


class Unavailable(WebError):
    """The provider did not answer, or answered 5xx: worth retrying."""


class SearchProvider(Protocol):
    @property
    def name(self) -> str: ...

    def search(self, query: str, *, limit: int = LIMIT) -> list[SearchResult]: ...


@dataclass(frozen=True)
class SearchSettings:
    searxng_url: str | None = None
    brave_api_key: str | None = None
    brave_url: str = "https://api.search.brave.com"
    timeout: float = 10.0


class _JsonClient:
    def __init__(self, base_url: str, *, timeout: float, headers: dict[str, str] | None = None) -> None:
        self._client = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout, headers=headers or {})
        self._retry = Retry(on=Unavailable, delays=exponential(2, 0.5))

    def get(self, path: str, params: dict[str, str | int], *, what: str) -> Any:
        return self._retry.call(lambda: self._get_once(path, params, what))

    def _get_once(self, path: str, params: dict[str, str | int], what: str) -> Any:
        try:
            response = self._client.get(path, params=params)
        except httpx.TransportError as error:
            raise Unavailable(f"{what} unreachable: {type(error).__name__}: {error}") from None
        if response.status_code >= 500:
            raise Unavailable(f"{what} answered HTTP {response.status_code}")
        if response.status_code >= 400:
            raise WebError(f"{what} answered HTTP {response.status_code}: {response.text[:200]}")
        try:
            return response.json()
        except ValueError:
            raise WebError(f"{what} did not answer JSON (is its JSON output enabled?)") from None


def _text(value: Any, limit: int) -> str:
    return " ".join(str(value or "").split())[:limit]


def _date(value: Any) -> str | None:
    text = str(value or "")
    return text[:10] if len(text) >= 10 and text[4] == "-" and text[7] == "-" else None


def _results(items: Any, fields: tuple[str, str, str, str], limit: int, what: str) -> list[SearchResult]:
    if not isinstance(items, list):
        raise WebError(f"{what} answered without a list of results")
    url, title, snippet, date = fields
    found: list[SearchResult] = []
    for item in items:
        if isinstance(item, dict) and str(item.get(url, "")).startswith(("http://", "https://")):
            found.append(
                SearchResult(
                    url=str(item[url])[:2000],
                    title=_text(item.get(title), 300),
                    snippet=_text(item.get(snippet), 600),
                    published_date=_date(item.get(date)),
                )
            )
    return found[:limit]


class SearxngProvider:
    """SearXNG's ``/search?format=json`` (its settings must list ``json`` under ``search.formats``)."""

    name = "searxng"

    def __init__(self, base_url: str, *, timeout: float = 10.0) -> None:
        self._client = _JsonClient(base_url, timeout=timeout)

    def search(self, query: str, *, limit: int = LIMIT) -> list[SearchResult]:
        answer = self._client.get("/search", {"q": query, "format": "json"}, what="SearXNG")
        items = answer.get("results") if isinstance(answer, dict) else None
        return _results(items, ("url", "title", "content", "publishedDate"), limit, "SearXNG")


class BraveProvider:
    """Brave's Web Search API (``X-Subscription-Token``)."""

    name = "brave"

    def __init__(self, api_key: str, *, base_url: str = "https://api.search.brave.com", timeout: float = 10.0) -> None:
        headers = {"X-Subscription-Token": api_key, "Accept": "application/json"}
        self._client = _JsonClient(base_url, timeout=timeout, headers=headers)

    def search(self, query: str, *, limit: int = LIMIT) -> list[SearchResult]:
        answer = self._client.get("/res/v1/web/search", {"q": query, "count": limit}, what="Brave Search")
        web = answer.get("web") if isinstance(answer, dict) else None
        items = web.get("results", []) if isinstance(web, dict) else []
        return _results(items, ("url", "title", "description", "page_age"), limit, "Brave Search")


def searxng(settings: SearchSettings) -> SearchProvider:
    if not settings.searxng_url:
        raise ValueError("the searxng provider needs SEARXNG_URL")
    return SearxngProvider(settings.searxng_url, timeout=settings.timeout)


def brave(settings: SearchSettings) -> SearchProvider:
    if not settings.brave_api_key:
        raise ValueError("the brave provider needs BRAVE_API_KEY")
    return BraveProvider(settings.brave_api_key, base_url=settings.brave_url, timeout=settings.timeout)


ProviderFactory = Callable[[SearchSettings], SearchProvider]
# "none" (no web tools) is the settings' default and has no entry here.
PROVIDERS: Registry[ProviderFactory] = Registry(
    "web search provider",
    {"searxng": "research.retrieval.web.search:searxng", "brave": "research.retrieval.web.search:brave"},
)
