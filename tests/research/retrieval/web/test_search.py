"""Web search providers against loopback servers: SearXNG's JSON API and Brave's, their answers normalised,
malformed answers and failures reported clearly, transient failures retried."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from research.retrieval.web import WebError
from research.retrieval.web.search import PROVIDERS, BraveProvider, SearchSettings, SearxngProvider, Unavailable
from tests.support.http_stub import serve
from tests.support.web_site import Site, web_site


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with web_site() as served:
        yield served


def test_searxng_results_become_search_results(site: Site) -> None:
    results = SearxngProvider(site.base).search("Halvorix Berlin office")
    assert results[0].title == "Halvorix opens a Berlin office"
    assert "Tavelnor annual report" not in [r.title for r in results]  # the stub's own matching
    assert results[0].url == site.url("/news/berlin.html")
    assert results[0].published_date == "2026-06-04"
    assert any("format=json" in path for path, _ in site.requests)


def test_brave_results_become_search_results_and_the_key_is_sent() -> None:
    seen: list[Any] = []
    answer = {
        "web": {
            "results": [
                {
                    "url": "https://example.com/a",
                    "title": "A <b>page</b>",
                    "description": "About A",
                    "page_age": "2026-05-01T00:00:00",
                },
                {"url": "javascript:alert(1)", "title": "not a page"},
                "not even an object",
            ]
        }
    }

    def route() -> tuple[int, Any]:
        seen.append(True)
        return 200, answer

    with serve({"/res/v1/web/search?q=halvorix&count=8": route}) as base:
        results = BraveProvider("key-123", base_url=base).search("halvorix")
    assert [(r.url, r.published_date) for r in results] == [("https://example.com/a", "2026-05-01")]
    assert seen


def test_failures_say_what_went_wrong() -> None:
    refusing = serve({"/search?q=x&format=json": lambda: (403, {"error": "json format disabled"})})
    with refusing as base, pytest.raises(WebError, match="SearXNG answered HTTP 403"):
        SearxngProvider(base).search("x")
    malformed = serve({"/search?q=x&format=json": lambda: (200, {"no": "results"})})
    with malformed as base, pytest.raises(WebError, match="without a list of results"):
        SearxngProvider(base).search("x")
    calls: list[int] = []

    def flaky() -> tuple[int, Any]:
        calls.append(1)
        return (502, {}) if len(calls) < 3 else (200, {"results": []})

    with serve({"/search?q=x&format=json": flaky}) as base:
        assert SearxngProvider(base).search("x") == []
    assert len(calls) == 3  # two retries
    with pytest.raises(Unavailable, match="unreachable"):
        SearxngProvider("http://127.0.0.1:9", timeout=0.5).search("x")


def test_the_registry_builds_providers_and_names_missing_settings() -> None:
    assert PROVIDERS.names == ("searxng", "brave")
    assert PROVIDERS.load("searxng")(SearchSettings(searxng_url="http://127.0.0.1:1")).name == "searxng"
    with pytest.raises(ValueError, match="SEARXNG_URL"):
        PROVIDERS.load("searxng")(SearchSettings())
    with pytest.raises(ValueError, match="BRAVE_API_KEY"):
        PROVIDERS.load("brave")(SearchSettings())
