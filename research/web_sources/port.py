"""A run's web sources as the harness's ``Web`` port: searches through the configured provider, fetches into the
workspace's web corpus (research/web_sources/services.py), a fetched page's unseen chunks read back like
read_document."""

from __future__ import annotations

import contextlib
import re

from django.contrib.auth.models import User
from django.db import connection

from research.harness.ports import CorpusResult, FetchedPage, WebToolError
from research.models import Corpus
from research.platform.composition import corpus_index
from research.protocol.events import PageRef, WebHit
from research.retrieval.port import CorpusPort
from research.retrieval.web import Refused, WebError
from research.retrieval.web.search import SearchProvider
from research.web_sources.services import page_fetch, url_clean

_URL = re.compile(r"https?://[^\s<>\"')]+")


class RunWeb:
    """``fetch_url`` takes only the addresses this run's web searches returned or its question names: a page's
    text (or a model it misled) cannot make the run send data to an address of its choosing (``?q=<secret>``)."""

    def __init__(self, *, provider: SearchProvider, corpus: Corpus, user: User | None, question: str = "") -> None:
        self.provider, self.corpus, self.user = provider, corpus, user
        self.offered: set[str] = set()
        for url in _URL.findall(question):
            self._offer(url)

    def _offer(self, url: str) -> None:
        with contextlib.suppress(Refused):
            self.offered.add(url_clean(url))

    def search(self, query: str) -> tuple[WebHit, ...]:
        try:
            results = self.provider.search(query)
        except WebError as error:
            raise WebToolError(str(error)) from None
        for result in results:
            self._offer(result.url)
        return tuple(
            WebHit(url=r.url, title=r.title, snippet=r.snippet, published_date=r.published_date) for r in results
        )

    def fetch(self, url: str, *, query: str, exclude: frozenset[str], budget: int) -> FetchedPage:
        """Fetch ``url`` into the web corpus and read its chunks; runs on a worker thread of the harness's loop,
        whose database connection is closed again afterwards."""
        try:
            clean = url_clean(url)
        except Refused as error:
            return FetchedPage(PageRef(url=url[:2000], outcome="refused", reason=str(error)))
        if clean not in self.offered:
            reason = "fetch_url takes the addresses of this run's web search results (or of its question) only"
            return FetchedPage(PageRef(url=clean, outcome="refused", reason=reason))
        try:
            fetched = page_fetch(corpus=self.corpus, url=clean, user=self.user)
            document = fetched.document
            page = PageRef(
                url=fetched.url,
                outcome=fetched.outcome,
                reason=fetched.reason,
                doc_id=document.doc_id if document else "",
                title=(document.title or document.source_name) if document else "",
            )
            if document is None:
                return FetchedPage(page)
            result: CorpusResult = CorpusPort(corpus_index(self.corpus)).read_document(
                document.doc_id, query=query, exclude=exclude, budget=budget
            )
            return FetchedPage(page, result)
        finally:
            connection.close()
