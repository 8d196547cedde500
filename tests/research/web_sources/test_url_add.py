"""Adding web pages to a corpus from its page: one address or a sitemap's pages, fetched by a worker, each with
its outcome on the page; sitemaps read safely; only owners and editors add; errors shown where the field is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from research.corpora import services as corpora
from research.models import Corpus, Document, Membership, Role, WebPage
from research.web_sources import services
from tests.research.web_sources.conftest import Owner
from tests.support.web_site import Site

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The tasks url_add sends (run here by the test, as the worker would), sent at once instead of on commit."""
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(services, "task_send", lambda name, *args: sent.append(args))
    monkeypatch.setattr(services.transaction, "on_commit", lambda function: function())
    return sent


def _work(queued: list[tuple[Any, ...]]) -> None:
    while queued:
        page_id, sitemap, limit, user_id = queued.pop(0)
        services.url_ingest(page_id=page_id, sitemap=sitemap, limit=limit, user_id=user_id)


def _corpus(owner: Owner) -> Corpus:
    return corpora.corpus_create(actor=owner.membership, name="Competitors")


def _url(owner: Owner, corpus: Corpus, name: str = "url_add") -> str:
    return reverse(name, kwargs={"slug": owner.workspace.slug, "corpus_slug": corpus.slug})


def test_a_page_added_by_address_is_fetched_by_the_worker_and_listed(
    owner: Owner, web_settings: Site, queued: list[tuple[Any, ...]], login: Callable[[User], Client]
) -> None:
    corpus = _corpus(owner)
    client = login(owner.membership.user)
    answer = client.post(_url(owner, corpus), {"url": web_settings.url("/news/berlin.html"), "limit": 20}, headers=HX)
    html = answer.content.decode()
    assert answer.status_code == 200
    assert 'data-outcome="queued"' in html
    assert 'hx-trigger="every 2s"' in html
    _work(queued)
    page = WebPage.objects.get(corpus=corpus)
    assert page.outcome == "fetched"
    assert page.document is not None
    card = client.get(_url(owner, corpus, "web_pages")).content.decode()
    assert "Halvorix opens a Berlin office" in card
    assert "every 2s" not in card
    assert "Fetch again" in card
    client.post(
        reverse("page_refetch", kwargs={"slug": owner.workspace.slug, "corpus_slug": corpus.slug, "page_id": page.pk}),
        headers=HX,
    )
    _work(queued)
    page.refresh_from_db()
    assert page.outcome == "unchanged"  # asked again (conditionally): nothing changed
    assert Document.objects.filter(corpus=corpus).count() == 1


def test_a_sitemap_adds_its_pages_up_to_the_limit_each_with_its_outcome(
    owner: Owner, web_settings: Site, queued: list[tuple[Any, ...]]
) -> None:
    corpus = _corpus(owner)
    services.url_add(actor=owner.membership, corpus=corpus, url=web_settings.url("/sitemap.xml"), sitemap=True, limit=3)
    _work(queued)
    rows = {
        page.url.removeprefix(web_settings.base): (page.outcome, page.reason)
        for page in WebPage.objects.filter(corpus=corpus)
    }
    assert rows["/sitemap.xml"] == ("sitemap", "3 pages listed")
    assert rows["/news/berlin.html"][0] == "fetched"
    assert rows["/report.pdf"][0] == "fetched"
    assert rows["/to-private"][0] == "refused"
    assert "private" in rows["/to-private"][1]
    assert sorted(Document.objects.filter(corpus=corpus).values_list("kind", flat=True)) == ["html", "pdf"]


def test_a_sitemap_index_is_followed_and_a_hostile_sitemap_fails_alone(
    owner: Owner, web_settings: Site, queued: list[tuple[Any, ...]]
) -> None:
    corpus = _corpus(owner)
    services.url_add(
        actor=owner.membership, corpus=corpus, url=web_settings.url("/sitemap-index.xml"), sitemap=True, limit=1
    )
    services.url_add(actor=owner.membership, corpus=corpus, url=web_settings.url("/bomb.xml"), sitemap=True, limit=5)
    services.url_add(actor=owner.membership, corpus=corpus, url=web_settings.url("/news/berlin.html"), sitemap=True)
    _work(queued)
    outcomes = {
        p.url.removeprefix(web_settings.base): (p.outcome, p.reason) for p in WebPage.objects.filter(corpus=corpus)
    }
    assert outcomes["/sitemap-index.xml"] == ("sitemap", "1 page listed")
    assert outcomes["/bomb.xml"][0] == "failed"
    assert "not a sitemap" in outcomes["/bomb.xml"][1]
    assert outcomes["/news/berlin.html"][0] == "failed"  # an HTML page is not a sitemap
    assert "not a sitemap" in outcomes["/news/berlin.html"][1]


def test_only_editors_add_pages_and_bad_addresses_are_refused_where_the_field_is(
    owner: Owner,
    web_settings: Site,
    queued: list[tuple[Any, ...]],
    login: Callable[[User], Client],
    make_user: Callable[..., User],
) -> None:
    corpus = _corpus(owner)
    viewer = make_user("vic")
    Membership.objects.create(workspace=owner.workspace, user=viewer, role=Role.VIEWER)
    assert login(viewer).post(_url(owner, corpus), {"url": "https://example.com/"}).status_code == 403
    assert login(make_user("eve")).post(_url(owner, corpus), {"url": "https://example.com/"}).status_code == 404
    client = login(owner.membership.user)
    bad = client.post(_url(owner, corpus), {"url": "not an address"}, headers=HX)
    assert bad.status_code == 422
    assert "Enter a valid URL." in bad.content.decode()
    local = client.post(_url(owner, corpus), {"url": "ftp://example.com/file"}, headers=HX)
    assert local.status_code == 422
    too_many = client.post(
        _url(owner, corpus), {"url": "https://example.com/s.xml", "sitemap": "on", "limit": 5000}, headers=HX
    )
    assert too_many.status_code == 422
    assert "A sitemap adds at most 50 pages" in too_many.content.decode()
    assert not WebPage.objects.exists()
    assert queued == []
