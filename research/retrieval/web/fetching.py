"""Fetching a page by the rules: every request and redirect checked by the guard and connected to the checked
address (TLS still verifies the host's certificate), robots.txt honoured, one request at a time per host at most
every ``min_interval`` seconds, timeouts on connecting and reading and one deadline on the whole fetch (connect,
headers, body, redirects) enforced by shutting its sockets down (``_Watchdog``), a size cap
while streaming, only the types the product can read, and conditional requests (ETag, Last-Modified) so a page
that has not changed is not downloaded again."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import httpcore
import httpx

from research.retrieval.web import Refused, WebError
from research.retrieval.web.guard import AllowList, Resolver, Target, system_resolver, target

USER_AGENT = "Context1WebBot/1.0 (+https://github.com/chroma-core; research agent)"
READABLE = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/plain": "txt",
    "text/markdown": "md",
    "application/pdf": "pdf",
}
SITEMAPS = {**READABLE, "application/xml": "xml", "text/xml": "xml"}  # what a sitemap may come as
REDIRECTS = 5
ROBOTS = {"text/plain": "txt"}
ROBOTS_MAX_BYTES = 512 * 1024  # what RFC 9309 asks a crawler to read at least
ROBOTS_SECONDS, ROBOTS_FAILED_SECONDS = 3600.0, 300.0  # how long a site's rules (or its failure) are kept
DISALLOW_ALL = ("User-agent: *", "Disallow: /")


class HttpStatus(WebError):
    """A site answered with an error status."""

    def __init__(self, url: str, status: int) -> None:
        super().__init__(f"{url} answered HTTP {status}")
        self.status = status


@dataclass(frozen=True)
class FetchSettings:
    allow: AllowList = field(default_factory=AllowList)
    timeout: float = 10.0  # connect and each read
    deadline: float = 30.0  # the whole fetch, redirects included
    max_bytes: int = 5 * 2**20
    min_interval: float = 1.0  # seconds between two requests to one host
    robots: bool = True


@dataclass(frozen=True)
class Page:
    url: str  # after redirects
    status: int  # 200, or 304 (not modified: ``body`` empty)
    content_type: str  # a key of READABLE's values: html, txt, md, pdf
    body: bytes
    etag: str = ""
    last_modified: str = ""
    published: str | None = None  # ISO date from Last-Modified, when the page says nothing better

    @property
    def not_modified(self) -> bool:
        return self.status == 304


Pins = dict[tuple[str, int], tuple[str, ...]]


class _Watchdog:
    """Ends an exchange at its deadline by shutting its sockets down: a read in progress then fails at once. Timeouts
    bound each read only, so a server that sends a header line every few seconds kept a fetch (and its worker) alive
    long past the deadline."""

    def __init__(self) -> None:
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self.fired = False

    def watch(self, stream: httpcore.NetworkStream) -> httpcore.NetworkStream:
        sock = stream.get_extra_info("socket")
        with self._lock:
            if isinstance(sock, socket.socket):
                self._sockets.append(sock)
            if self.fired:
                self._shut(sock)
        return stream

    def fire(self) -> None:
        with self._lock:
            self.fired = True
            for sock in self._sockets:
                self._shut(sock)

    @staticmethod
    def _shut(sock: object) -> None:
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)


class _Pinned(httpcore.SyncBackend):
    """Connects only to the addresses the guard checked for a host, in order (never resolves on its own); every
    connection is watched by the exchange's ``_Watchdog``."""

    def __init__(self, pins: Pins, watchdog: _Watchdog) -> None:
        self.pins, self.watchdog = pins, watchdog

    def connect_tcp(self, host: str, port: int, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        addresses = self.pins.get((host, port))
        if not addresses:
            raise httpcore.ConnectError(f"{host}:{port} was not checked")
        failure: Exception | None = None
        for address in addresses:  # a host with IPv6 and IPv4 addresses on a network with only one of them
            try:
                return self.watchdog.watch(super().connect_tcp(address, port, *args, **kwargs))
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as error:
                failure = error
        assert failure is not None
        raise failure


class _PinnedTransport(httpx.HTTPTransport):
    def __init__(self, pins: Pins, watchdog: _Watchdog) -> None:
        super().__init__(trust_env=False, retries=0)
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            network_backend=_Pinned(pins, watchdog),
            max_connections=2,
        )


class HostPacing:
    """At most one request per host every ``interval`` seconds (in this process): waits, never refuses."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval, self.clock = interval, clock
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait(self, host: str) -> None:
        with self._lock:
            now = self.clock()
            start = max(now, self._next.get(host, now))
            self._next[host] = start + self.interval
        if start > now:
            time.sleep(start - now)


def post(
    url: str,
    content: bytes,
    headers: Mapping[str, str],
    *,
    allow: AllowList,
    timeout: float,
    deadline: float,
    resolve: Resolver = system_resolver,
    allowed_by: str = "WEB_FETCH_ALLOWED_HOSTS",
) -> int:
    """POST ``content`` to ``url`` by the guard's rules (the checked address only; a redirect is not followed, its
    status is the answer), within ``deadline`` seconds in all; the answer's status (its body is never read), or
    ``Refused`` / ``WebError`` with the reason."""
    checked = target(url, allow=allow, resolve=resolve, allowed_by=allowed_by)
    watchdog = _Watchdog()
    timer = threading.Timer(deadline, watchdog.fire)
    timer.daemon = True
    timer.start()
    transport = _PinnedTransport({(checked.host, checked.port): checked.addresses}, watchdog)
    try:
        with httpx.Client(transport=transport, timeout=min(timeout, deadline), follow_redirects=False) as client:
            request = client.build_request("POST", checked.url, content=content, headers=dict(headers))
            response = client.send(request, stream=True)
            response.close()
            return response.status_code
    except httpx.InvalidURL as error:  # an address the guard passed that httpx cannot send to (not an HTTPError)
        raise Refused(f"not a valid address: {error}") from None
    except httpx.HTTPError as error:
        late = f"{checked.host} did not answer within {deadline:g} s"
        raise _failure(error, checked, watchdog, late, timeout) from None
    finally:
        timer.cancel()


def _failure(error: httpx.HTTPError, checked: Target, watchdog: _Watchdog, late: str, timeout: float) -> WebError:
    """What an exchange that failed says: ``late`` when its deadline cut it, else a timeout or the error itself."""
    if watchdog.fired:
        return WebError(late)
    if isinstance(error, httpx.TimeoutException):
        return WebError(f"{checked.host} did not answer within {timeout:g} s")
    return WebError(f"{checked.host}: {type(error).__name__}: {error}")


class Fetcher:
    def __init__(self, settings: FetchSettings, *, resolve: Resolver = system_resolver) -> None:
        self.settings, self.resolve = settings, resolve
        self.pacing = HostPacing(settings.min_interval)
        self._robots: dict[str, tuple[RobotFileParser | None, float]] = {}  # root -> (rules, kept until)

    def fetch(
        self, url: str, *, etag: str = "", last_modified: str = "", readable: Mapping[str, str] = READABLE
    ) -> Page:
        """The page at ``url`` (following allowed redirects), or ``Refused`` / ``WebError`` with the reason;
        ``readable`` maps the content types accepted to their kind."""
        headers = {"If-None-Match": etag} if etag else {}
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        return self._follow(url, headers, readable, time.monotonic(), self.settings.max_bytes, robots=True)

    def _follow(
        self,
        url: str,
        headers: dict[str, str],
        readable: Mapping[str, str],
        started: float,
        limit: int,
        *,
        robots: bool,
    ) -> Page:
        """Every hop checked by the guard (and robots.txt when ``robots``) before it is asked."""
        current = url
        for _ in range(REDIRECTS + 1):
            checked = target(current, allow=self.settings.allow, resolve=self.resolve)
            if robots:
                self._obey_robots(checked, started)
            response = self._get(checked, headers, started, readable, limit)
            if isinstance(response, str):
                current, headers = response, {}  # a conditional request belongs to the first address only
                continue
            return response
        raise Refused(f"more than {REDIRECTS} redirects")

    def _remaining(self, started: float) -> float:
        left = self.settings.deadline - (time.monotonic() - started)
        if left <= 0:
            raise WebError(f"the fetch took longer than {self.settings.deadline:g} s")
        return left

    def _get(
        self, checked: Target, headers: dict[str, str], started: float, readable: Mapping[str, str], limit: int
    ) -> Page | str:
        """A page, or the next address of a redirect."""
        self.pacing.wait(checked.host)
        left = self._remaining(started)
        timeout = httpx.Timeout(min(self.settings.timeout, left))
        pins = {(checked.host, checked.port): checked.addresses}
        watchdog = _Watchdog()
        timer = threading.Timer(left, watchdog.fire)
        timer.daemon = True
        timer.start()
        transport = _PinnedTransport(pins, watchdog)
        try:
            with httpx.Client(transport=transport, timeout=timeout, follow_redirects=False) as client:
                request = client.build_request("GET", checked.url, headers={"User-Agent": USER_AGENT, **headers})
                response = client.send(request, stream=True)
                try:
                    return self._answer(checked, response, started, readable, limit)
                finally:
                    response.close()
        except httpx.HTTPError as error:
            late = f"the fetch took longer than {self.settings.deadline:g} s"
            raise _failure(error, checked, watchdog, late, self.settings.timeout) from None
        finally:
            timer.cancel()

    def _answer(
        self, checked: Target, response: httpx.Response, started: float, readable: Mapping[str, str], limit: int
    ) -> Page | str:
        if response.status_code in (301, 302, 303, 307, 308):
            location = str(response.headers.get("location", ""))
            if not location:
                raise WebError(f"a redirect from {checked.url} without a Location")
            return urljoin(checked.url, location)
        if response.status_code == 304:
            return Page(checked.url, 304, "", b"", response.headers.get("etag", ""))
        if response.status_code != 200:
            raise HttpStatus(checked.url, response.status_code)
        kind = readable.get(response.headers.get("content-type", "").split(";")[0].strip().lower())
        if kind is None:
            raise Refused(f"{checked.url} is {response.headers.get('content-type') or 'of no stated type'}: not a page")
        body = self._body(checked, response, started, limit)
        modified = response.headers.get("last-modified", "")
        return Page(checked.url, 200, kind, body, response.headers.get("etag", ""), modified, _iso_date(modified))

    def _body(self, checked: Target, response: httpx.Response, started: float, limit: int) -> bytes:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise Refused(f"{checked.url} is {int(declared):,} bytes, over the {limit:,}-byte limit")
        chunks, size = [], 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > limit:
                raise Refused(f"{checked.url} is over the {limit:,}-byte limit")
            self._remaining(started)
            chunks.append(chunk)
        return b"".join(chunks)

    def _obey_robots(self, checked: Target, started: float) -> None:
        if not self.settings.robots:
            return
        root = f"{checked.scheme}://{urlsplit(checked.url).netloc}"
        known = self._robots.get(root)
        if known is None or known[1] < time.monotonic():
            known = self._robots[root] = self._robots_of(root, started)
        rules = known[0]
        if rules is not None and not rules.can_fetch(USER_AGENT, checked.url):
            raise Refused(f"{root}/robots.txt does not allow fetching {urlsplit(checked.url).path or '/'}")

    def _robots_of(self, root: str, started: float) -> tuple[RobotFileParser | None, float]:
        """The site's rules and until when to keep them (RFC 9309): none (everything allowed) when it has no
        robots.txt (a 4xx) or one that is not plain text or too big; everything disallowed while its robots.txt
        cannot be read (a 5xx, no answer), for a few minutes."""
        url = f"{root}/robots.txt"
        now = time.monotonic()
        try:
            page = self._follow(url, {}, ROBOTS, started, ROBOTS_MAX_BYTES, robots=False)
        except HttpStatus as error:
            if 400 <= error.status < 500:
                return None, now + ROBOTS_SECONDS
            return _rules(url, DISALLOW_ALL), now + ROBOTS_FAILED_SECONDS
        except Refused:
            return None, now + ROBOTS_SECONDS
        except WebError:
            return _rules(url, DISALLOW_ALL), now + ROBOTS_FAILED_SECONDS
        return _rules(url, page.body.decode("utf-8", errors="replace").splitlines()), now + ROBOTS_SECONDS


def _rules(url: str, lines: Sequence[str]) -> RobotFileParser:
    rules = RobotFileParser(url)
    rules.parse(list(lines))
    return rules


def _iso_date(header: str) -> str | None:
    try:
        return parsedate_to_datetime(header).date().isoformat() if header else None
    except (TypeError, ValueError):
        return None
