"""``bench_web``: fetching pages into a corpus against a loopback site, against a plain download in the same run.

The site serves ``pages`` article pages (distinct text each), a SearXNG-compatible ``/search`` and robots.txt.
Measured, through the product's ``page_fetch`` (guard, robots.txt, fetch, sandboxed parse, chunk, embed, index,
BM25 refresh): pages per second with the cache cold (first fetch), warm (fetched within WEB_CACHE_HOURS: the site
is not asked) and revalidated (the site asked conditionally, answering 304); the seconds from a fetch to the page
being found by a search of its corpus; and, in a research run with web sources over a corpus that lacks the
answer, the share of the run's wall time spent in fetch_url. Baseline: the same pages downloaded with one plain
httpx GET each (no guard, no ingestion), so ``cold_vs_plain`` prices everything a page goes through.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, cast
from urllib.parse import parse_qs, urlsplit

import httpx
from django.test import override_settings

from research.corpora import ingestion
from research.corpora import services as corpora
from research.models import Run, RunStatus, UploadFile
from research.platform import composition
from research.platform.composition import corpus_index
from research.runs import agent
from research.runs import services as runs
from research.runs.execution import run_execute
from research.runs.trial import in_process_events, trial_clean, trial_workspace
from research.web_sources import port as web_port
from research.web_sources import services as web

SEARCH_HITS = 3
NOTES = b"Our notes on Globex: the Team plan costs 59 dollars a month since May."
TOPICS = ("pricing", "funding", "hiring", "launch", "partnership", "customers", "security", "roadmap")
COMPANIES = ("Halvorix", "Stellique", "Marrowpine", "Tavelnor", "Fernhollow", "Cairnmoor")


def page_html(number: int) -> bytes:
    company, topic = COMPANIES[number % len(COMPANIES)], TOPICS[number % len(TOPICS)]
    paragraphs = "".join(
        f"<p>{company} announced its {topic} update number {number}, part {part}: the benchmark page {number} "
        f"describes plans for {topic} in {2020 + part} with {part * 7 + number} engineers in office {number}.</p>"
        for part in range(1, 9)
    )
    title = page_title(number)
    head = f"<html><head><title>{title}</title></head>"
    return f"{head}<body><article><h1>{title}</h1>{paragraphs}</article></body></html>".encode()


def page_title(number: int) -> str:
    return f"{COMPANIES[number % len(COMPANIES)]} {TOPICS[number % len(TOPICS)]} news {number}"


class _Site(BaseHTTPRequestHandler):
    """The benchmark's site: its pages (with ETags, answering 304 to a matching conditional request), robots.txt
    and a SearXNG-compatible /search listing its first pages."""

    protocol_version = "HTTP/1.1"
    bodies: ClassVar[dict[str, bytes]] = {}

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == "/robots.txt":
            return self._send(200, "text/plain", b"User-agent: *\nAllow: /\n")
        if path == "/search":
            return self._search()
        body = self.bodies.get(path)
        if body is None:
            return self._send(404, "text/html", b"missing")
        if self.headers.get("If-None-Match") == f'"{path}"':
            return self._send(304, "text/html", b"", etag=path)
        return self._send(200, "text/html; charset=utf-8", body, etag=path)

    def _search(self) -> None:
        base = f"http://127.0.0.1:{cast(ThreadingHTTPServer, self.server).server_port}"
        query = (parse_qs(urlsplit(self.path).query).get("q") or [""])[0]
        newest = len(self.bodies)  # the last pages, which nothing else fetches: a web run reads them fresh
        hits = [
            {"url": f"{base}/page/{n}.html", "title": page_title(n), "content": query}
            for n in range(newest - SEARCH_HITS, newest)
        ]
        return self._send(200, "application/json", json.dumps({"results": hits}).encode())

    def _send(self, status: int, kind: str, body: bytes, etag: str = "") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if etag:
            self.send_header("ETag", f'"{etag}"')
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def bench_site(pages: int) -> Iterator[str]:
    handler = type("Handler", (_Site,), {"bodies": {f"/page/{n}.html": page_html(n) for n in range(pages)}})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _rate(count: int, seconds: float) -> float:
    return round(count / seconds, 2) if seconds else 0.0


def _timed_fetches(corpus: Any, urls: list[str]) -> tuple[float, list[str]]:
    started = time.perf_counter()
    outcomes = [web.page_fetch(corpus=corpus, url=url).outcome for url in urls]
    return time.perf_counter() - started, outcomes


def _plain(urls: list[str]) -> float:
    started = time.perf_counter()
    with httpx.Client(timeout=10) as client:
        for url in urls:
            client.get(url).raise_for_status()
    return time.perf_counter() - started


def _searchable(corpus: Any, url: str, title: str) -> float:
    """Seconds from asking for a page to a search of its corpus returning it first."""
    started = time.perf_counter()
    fetched = web.page_fetch(corpus=corpus, url=url)
    hits = corpus_index(corpus).search(title, budget=3000)
    if fetched.document is None or not hits.chunks or hits.chunks[0].chunk.doc_id != fetched.document.doc_id:
        raise RuntimeError(f"{url} was not searchable after its fetch ({fetched.outcome}: {fetched.reason})")
    return time.perf_counter() - started


class TimedWeb(web_port.RunWeb):
    """The product's web port, recording when each fetch ran (the benchmark's wrapper; the product has no hook)."""

    intervals: ClassVar[list[tuple[float, float]]] = []

    def fetch(self, url: str, *, query: str, exclude: frozenset[str], budget: int) -> Any:
        started = time.perf_counter()
        try:
            return super().fetch(url, query=query, exclude=exclude, budget=budget)
        finally:
            TimedWeb.intervals.append((started, time.perf_counter()))


def covered(intervals: list[tuple[float, float]]) -> float:
    """Seconds during which at least one interval was open (concurrent fetches count once)."""
    total, end = 0.0, float("-inf")
    for start, stop in sorted(intervals):
        if stop > end:
            total += stop - max(start, end)
            end = stop
    return total


def _run_share(owner: Any, corpus: Any) -> dict[str, Any]:
    """A research run with web sources (heuristic agent, 2 rollouts) over a corpus that lacks the answer: the
    share of its wall time during which a fetch_url was under way (the product's port, wrapped here)."""
    TimedWeb.intervals = []
    original = web_port.RunWeb
    agent.RunWeb = TimedWeb  # type: ignore[attr-defined]
    try:
        run = runs.run_start(
            actor=owner,
            question="Which company acquired the robotics unit of Globex?",  # nothing fetched so far says
            corpora=[corpus],
            rollouts=2,
            max_turns=6,
            web=True,
            enqueue=False,
        )
        started = time.perf_counter()
        run_execute(run_id=run.pk)
        wall = time.perf_counter() - started
    finally:
        agent.RunWeb = original  # type: ignore[attr-defined]
    status = Run.objects.get(pk=run.pk).status
    if status != RunStatus.FINISHED:
        raise RuntimeError(f"the web run ended {status}")
    fetching = covered(TimedWeb.intervals)
    return {
        "run_seconds": round(wall, 2),
        "fetches": len(TimedWeb.intervals),
        "fetch_seconds": round(fetching, 2),  # wall time with at least one fetch under way
        "fetch_share": round(fetching / wall, 3) if wall else 0.0,
    }


def bench_web(*, pages: int, fresh: int = 5) -> dict[str, Any]:
    with bench_site(pages + fresh + SEARCH_HITS) as base, in_process_events():
        port = int(base.rsplit(":", 1)[1])
        overrides = {
            "WEB_SEARCH_PROVIDER": "searxng",
            "SEARXNG_URL": base,
            "WEB_FETCH_ALLOWED_HOSTS": [f"127.0.0.1:{port}"],
            "WEB_FETCH_INTERVAL": 0.0,
        }
        with override_settings(**overrides):
            composition.web_reset()
            owner = trial_workspace("Web benchmark")
            try:
                return _measure(owner, base, pages, fresh)
            finally:
                trial_clean(owner)
                composition.web_reset()


def _measure(owner: Any, base: str, pages: int, fresh: int) -> dict[str, Any]:
    corpus = web.web_corpus(actor=owner)
    urls = [f"{base}/page/{n}.html" for n in range(pages)]
    plain = _plain(urls)
    cold, outcomes = _timed_fetches(corpus, urls)
    warm, warm_outcomes = _timed_fetches(corpus, urls)
    with override_settings(WEB_CACHE_HOURS=0):
        revalidated, revalidated_outcomes = _timed_fetches(corpus, urls)
    searchable = [
        _searchable(
            corpus, f"{base}/page/{n}.html", f"{COMPANIES[n % len(COMPANIES)]} {TOPICS[n % len(TOPICS)]} news {n}"
        )
        for n in range(pages, pages + fresh)
    ]
    files = corpora.corpus_create(actor=owner, name="Notes")
    corpora.upload_create(actor=owner, corpus=files, files=[corpora.IncomingFile("notes.txt", [NOTES])], enqueue=False)
    for item in UploadFile.objects.filter(upload__corpus=files):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    ingestion.corpus_refresh_sparse(corpus_id=files.pk)
    return {
        "pages": pages,
        "outcomes": {
            "cold": _count(outcomes),
            "warm": _count(warm_outcomes),
            "revalidated": _count(revalidated_outcomes),
        },
        "baseline": "one plain httpx GET a page (no guard, no robots.txt, no ingestion)",
        "plain_pages_per_second": _rate(pages, plain),
        "cold_pages_per_second": _rate(pages, cold),
        "warm_pages_per_second": _rate(pages, warm),
        "revalidated_pages_per_second": _rate(pages, revalidated),
        "cold_vs_plain_seconds": round(cold / plain, 1) if plain else None,
        "seconds_to_searchable_median": round(statistics.median(searchable), 3),
        "seconds_to_searchable_max": round(max(searchable), 3),
        "web_run": _run_share(owner, files),
    }


def _count(outcomes: list[str]) -> dict[str, int]:
    return {outcome: outcomes.count(outcome) for outcome in sorted(set(outcomes))}
