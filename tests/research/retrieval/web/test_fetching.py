"""Fetching pages from a loopback site by the rules: redirects re-checked, robots.txt, size and time limits,
readable types only, conditional requests, and one request per host at a time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from research.retrieval.web import Refused, WebError
from research.retrieval.web.fetching import Fetcher, FetchSettings, HostPacing
from research.retrieval.web.guard import AllowList
from tests.support.web_site import ETAG, Site, web_site


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    with web_site() as served:
        yield served


def _fetcher(site: Site, **changes: object) -> Fetcher:
    settings = FetchSettings(allow=AllowList.of([f"127.0.0.1:{site.port}"]), min_interval=0.0, timeout=1.0)
    return Fetcher(FetchSettings(**{**settings.__dict__, **changes}))  # type: ignore[arg-type]


def test_a_page_is_fetched_with_its_validators_and_date(site: Site) -> None:
    page = _fetcher(site).fetch(site.url("/news/berlin.html"))
    assert (page.status, page.content_type, page.etag) == (200, "html", ETAG)
    assert b"Berlin office" in page.body
    assert page.published == "2026-06-04"
    again = _fetcher(site).fetch(site.url("/news/berlin.html"), etag=page.etag, last_modified=page.last_modified)
    assert again.not_modified
    assert again.body == b""
    _, headers = site.requests[-1]
    assert headers["If-None-Match"] == ETAG
    assert "Context1WebBot" in headers["User-Agent"]


def test_a_pdf_is_fetched_and_redirects_to_allowed_pages_are_followed(site: Site) -> None:
    assert _fetcher(site).fetch(site.url("/report.pdf")).content_type == "pdf"
    followed = _fetcher(site).fetch(site.url("/to-article"))
    assert followed.url == site.url("/news/berlin.html")
    assert followed.status == 200


@pytest.mark.parametrize(
    ("path", "error", "reason"),
    [
        ("/to-private", Refused, "10.20.30.40, a private, local or reserved address"),
        ("/to-metadata", Refused, "169.254.169.254, a private, local or reserved address"),
        ("/to-other-port", Refused, "is not the standard port"),
        ("/loop", Refused, "more than 5 redirects"),
        ("/private/secret.html", Refused, "robots.txt does not allow fetching /private/secret.html"),
        ("/huge", Refused, "over the 5,242,880-byte limit"),
        ("/huge-unannounced", Refused, "over the 5,242,880-byte limit"),
        ("/binary", Refused, "application/octet-stream: not a page"),
        ("/slow", WebError, "did not answer within 1 s"),
        ("/missing", WebError, "answered HTTP 404"),
    ],
)
def test_what_the_rules_forbid_is_refused_with_the_reason(site: Site, path: str, error: type, reason: str) -> None:
    with pytest.raises(error, match=reason.replace(".", r"\.")):
        _fetcher(site).fetch(site.url(path))


def test_robots_txt_can_be_off_for_an_intranet_but_the_addresses_still_count(site: Site) -> None:
    assert _fetcher(site, robots=False).fetch(site.url("/private/secret.html")).status == 200
    with pytest.raises(Refused, match="private"):
        _fetcher(site, robots=False).fetch(site.url("/to-private"))


def test_the_site_is_never_asked_for_a_refused_address(site: Site) -> None:
    before = len(site.requests)
    with pytest.raises(Refused):
        _fetcher(site).fetch(f"http://127.0.0.1:{site.port + 1}/")
    assert len(site.requests) == before


def test_requests_to_one_host_are_spaced() -> None:
    now = [100.0]
    slept: list[float] = []
    pacing = HostPacing(1.0, clock=lambda: now[0])
    import time

    original = time.sleep
    time.sleep = slept.append  # type: ignore[assignment]
    try:
        pacing.wait("a.example")
        pacing.wait("a.example")
        pacing.wait("b.example")
    finally:
        time.sleep = original
    assert slept == [1.0]  # the second request to a.example waits a second; b.example does not


def test_the_connection_goes_to_the_checked_address_without_asking_dns_again(site: Site) -> None:
    """``pinned.test`` resolves nowhere but in this resolver: the page arrives only because the fetcher
    connects to the address it checked, never letting the HTTP library resolve the name again."""
    asked: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        asked.append(host)
        return ["127.0.0.1"]

    settings = FetchSettings(allow=AllowList.of([f"pinned.test:{site.port}"]), min_interval=0.0, timeout=1.0)
    page = Fetcher(settings, resolve=resolve).fetch(f"http://pinned.test:{site.port}/news/berlin.html")
    assert page.status == 200
    assert site.requests[-1][1]["Host"] == f"pinned.test:{site.port}"  # the name still goes to the site
    assert asked == ["pinned.test", "pinned.test"]  # robots.txt and the page: each checked, by us only
