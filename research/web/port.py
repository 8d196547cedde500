"""A run's web sources as the harness's ``Web`` port: searches through the configured provider, fetches into the
workspace's web corpus (research/web/services.py), a fetched page's unseen chunks read back like read_document."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import connection

from research.harness.ports import CorpusResult, FetchedPage, WebToolError
from research.models import Corpus
from research.platform.composition import corpus_index
from research.protocol.events import PageRef, WebHit
from research.retrieval.port import CorpusPort
from research.retrieval.web import WebError
from research.retrieval.web.search import SearchProvider
from research.web.services import page_fetch


class RunWeb:
    def __init__(self, *, provider: SearchProvider, corpus: Corpus, user: User | None) -> None:
        self.provider, self.corpus, self.user = provider, corpus, user

    def search(self, query: str) -> tuple[WebHit, ...]:
        try:
            results = self.provider.search(query)
        except WebError as error:
            raise WebToolError(str(error)) from None
        return tuple(
            WebHit(url=r.url, title=r.title, snippet=r.snippet, published_date=r.published_date) for r in results
        )

    def fetch(self, url: str, *, query: str, exclude: frozenset[str], budget: int) -> FetchedPage:
        """Fetch ``url`` into the web corpus and read its chunks; runs on a worker thread of the harness's loop,
        whose database connection is closed again afterwards."""
        try:
            fetched = page_fetch(corpus=self.corpus, url=url, user=self.user)
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
