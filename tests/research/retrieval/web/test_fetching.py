"""Fetching pages from a loopback site by the rules: redirects re-checked, robots.txt, size and time limits,
readable types only, conditional requests, and one request per host at a time."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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


class _Robots(BaseHTTPRequestHandler):
    """A site whose robots.txt is chosen by the test: a status, a redirect, or an endless body."""

    protocol_version = "HTTP/1.1"
    mode = "503"

    def do_GET(self) -> None:
        if self.path == "/robots.txt" and self.mode == "503":
            return self._send(503, b"busy")
        if self.path == "/robots.txt" and self.mode == "redirect":
            self.send_response(301)
            self.send_header("Location", "/rules/robots.txt")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if self.path == "/robots.txt" and self.mode == "endless":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            line = b"Allow: /" + b"x" * 4090 + b"\n"
            try:
                for _ in range(10_000):  # 40 MB if nobody stops reading
                    self.wfile.write(f"{len(line):x}\r\n".encode() + line + b"\r\n")
            except OSError:
                pass
            return None
        if self.path == "/rules/robots.txt":
            return self._send(200, b"User-agent: *\nDisallow: /secret\n", "text/plain")
        return self._send(200, b"<p>a page</p>", "text/html")

    def _send(self, status: int, body: bytes, kind: str = "text/plain") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def robots_site() -> Iterator[tuple[str, int, type[_Robots]]]:
    handler = type("Handler", (_Robots,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = int(server.server_address[1])
    yield f"http://127.0.0.1:{port}", port, handler
    server.shutdown()
    server.server_close()


def _robots_fetcher(port: int) -> Fetcher:
    return Fetcher(FetchSettings(allow=AllowList.of([f"127.0.0.1:{port}"]), min_interval=0.0, timeout=2.0))


def test_an_unreadable_robots_txt_disallows_everything_for_a_while(robots_site) -> None:  # type: ignore[no-untyped-def]
    base, port, _handler = robots_site
    with pytest.raises(Refused, match=r"robots\.txt does not allow"):
        _robots_fetcher(port).fetch(f"{base}/page")


def test_a_redirected_robots_txt_is_followed(robots_site) -> None:  # type: ignore[no-untyped-def]
    base, port, handler = robots_site
    handler.mode = "redirect"
    fetcher = _robots_fetcher(port)
    assert fetcher.fetch(f"{base}/open").status == 200
    with pytest.raises(Refused, match="does not allow fetching /secret"):
        fetcher.fetch(f"{base}/secret")


def test_an_endless_robots_txt_is_not_read_to_its_end(robots_site) -> None:  # type: ignore[no-untyped-def]
    base, port, handler = robots_site
    handler.mode = "endless"
    started = time.monotonic()
    assert _robots_fetcher(port).fetch(f"{base}/page").status == 200  # too big to be rules: ignored
    assert time.monotonic() - started < 20  # stopped at the cap, not after 40 MB


def test_a_host_whose_first_address_does_not_answer_is_reached_at_the_next(site: Site) -> None:
    """127.0.0.2 is loopback too, but nothing listens there: the fetcher goes on to the next checked address."""
    settings = FetchSettings(allow=AllowList.of([f"dual.test:{site.port}"]), min_interval=0.0, timeout=1.0)
    fetcher = Fetcher(settings, resolve=lambda host, port: ["127.0.0.2", "127.0.0.1"])
    assert fetcher.fetch(f"http://dual.test:{site.port}/news/berlin.html").status == 200
