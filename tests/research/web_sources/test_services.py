"""Fetching pages into corpora: ingested as uploads are, the same address one document, recent copies reused,
unchanged pages not downloaded again, every refusal recorded with its reason, one web corpus per workspace."""

from __future__ import annotations

import pytest

from research.models import Chunk, Corpus, CorpusKind, Document, WebPage
from research.platform.composition import corpus_index
from research.web_sources import services
from tests.research.web_sources.conftest import Owner
from tests.support.web_site import Site

pytestmark = pytest.mark.django_db


def test_a_page_is_fetched_into_a_corpus_as_a_document_with_its_address(owner: Owner, web_settings: Site) -> None:
    corpus = services.web_corpus(actor=owner.membership)
    fetched = services.page_fetch(corpus=corpus, url=web_settings.url("/news/berlin.html#top"))
    assert fetched.outcome == "fetched"
    document = fetched.document
    assert document is not None
    assert document.title == "Halvorix opens a Berlin office"
    assert document.source_name == "127.0.0.1/news/berlin.html"
    assert document.metadata["url"] == web_settings.url("/news/berlin.html")
    assert "fetched_at" in document.metadata
    text = " ".join(Chunk.objects.filter(document=document).values_list("text", flat=True))
    assert "forty engineers" in text
    assert "Cookie settings" not in text
    hits = corpus_index(corpus).search("Halvorix Berlin engineers", budget=2000)
    assert hits.chunks
    assert hits.chunks[0].chunk.doc_id == document.doc_id


def test_a_recent_copy_is_used_and_an_old_one_asked_for_conditionally(
    owner: Owner, web_settings: Site, settings
) -> None:  # type: ignore[no-untyped-def]
    corpus = services.web_corpus(actor=owner.membership)
    url = web_settings.url("/news/berlin.html")
    first = services.page_fetch(corpus=corpus, url=url)
    asked = web_settings.fetched("/news/berlin.html")
    assert services.page_fetch(corpus=corpus, url=url).outcome == "cached"
    assert web_settings.fetched("/news/berlin.html") == asked  # not asked again
    settings.WEB_CACHE_HOURS = 0
    again = services.page_fetch(corpus=corpus, url=url)
    assert again.outcome == "unchanged"
    assert again.document == first.document
    _, headers = web_settings.requests[-1]
    assert headers["If-None-Match"] == '"article-v1"'
    assert Document.objects.filter(corpus=corpus).count() == 1


def test_pdfs_are_read_by_the_pdf_parser(owner: Owner, web_settings: Site) -> None:
    corpus = services.web_corpus(actor=owner.membership)
    fetched = services.page_fetch(corpus=corpus, url=web_settings.url("/report.pdf"))
    assert fetched.outcome == "fetched"
    assert fetched.document is not None
    assert fetched.document.kind == "pdf"
    assert fetched.document.source_name == "127.0.0.1/report.pdf"


@pytest.mark.parametrize(
    ("path", "outcome", "reason"),
    [
        ("/to-private", "refused", "10.20.30.40, a private, local or reserved address"),
        ("/private/secret.html", "refused", "robots.txt does not allow"),
        ("/binary", "refused", "not a page"),
        ("/huge", "refused", "over the 5,242,880-byte limit"),
        ("/missing", "failed", "answered HTTP 404"),
    ],
)
def test_what_cannot_be_fetched_is_recorded_with_its_reason(
    owner: Owner, web_settings: Site, path: str, outcome: str, reason: str
) -> None:
    corpus = services.web_corpus(actor=owner.membership)
    fetched = services.page_fetch(corpus=corpus, url=web_settings.url(path))
    assert (fetched.outcome, fetched.document) == (outcome, None)
    assert reason in fetched.reason
    page = WebPage.objects.get(corpus=corpus)
    assert page.outcome == outcome
    assert page.reason.startswith(fetched.reason)  # the row adds how to allow an address the rules refused
    assert ("WEB_FETCH_ALLOWED_HOSTS (a comma-separated" in page.reason) == (path == "/to-private")
    assert not Document.objects.filter(corpus=corpus).exists()


def test_only_web_addresses_are_taken(owner: Owner, web_settings: Site) -> None:
    corpus = services.web_corpus(actor=owner.membership)
    for url in ("file:///etc/passwd", "javascript:alert(1)", "not a url"):
        fetched = services.page_fetch(corpus=corpus, url=url)
        assert fetched.outcome == "refused"
        assert "only http and https" in fetched.reason


def test_one_web_corpus_per_workspace_even_when_its_name_is_taken(owner: Owner) -> None:
    Corpus.objects.create(workspace=owner.workspace, name="Web pages", slug="web-pages")
    made = services.web_corpus(actor=owner.membership)
    assert (made.name, made.kind) == ("Web pages (2)", CorpusKind.WEB)
    assert services.web_corpus(actor=owner.membership) == made


def test_file_names_are_readable_and_unique_per_address() -> None:
    assert services.file_name("https://news.example/2026/berlin", "html") == "news.example/2026/berlin.html"
    assert services.file_name("https://news.example/", "html") == "news.example/index.html"
    assert services.file_name("https://a.example/r.pdf", "pdf") == "a.example/r.pdf"
    with_query = services.file_name("https://a.example/search?q=x", "html")
    assert with_query.startswith("a.example/search-")
    assert with_query.endswith(".html")
    assert with_query != services.file_name("https://a.example/search?q=y", "html")
