"""A page the address rules refuse says which setting allows it and how to change it, and is not offered
"Fetch again" (it would be refused again); a page that failed for a passing reason is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lxml.html
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from research.corpora import services as corpora
from research.models import WebPage
from research.web_sources import services
from tests.research.web_sources.conftest import Owner
from tests.support.web_site import Site

pytestmark = pytest.mark.django_db


def _rows(html: bytes) -> dict[str, Any]:
    rows = lxml.html.fromstring(html).xpath('//section[@id="web-pages"]//tbody/tr')
    return {row.xpath(".//td[1]/a/@href")[0]: row for row in rows}


def test_a_refused_page_names_the_setting_and_offers_no_second_fetch(
    owner: Owner, web_settings: Site, monkeypatch: pytest.MonkeyPatch, login: Callable[[User], Client]
) -> None:
    monkeypatch.setattr(
        services,
        "task_send",
        lambda name, *args: services.url_ingest(page_id=args[0], sitemap=args[1], limit=args[2], user_id=args[3]),
    )
    monkeypatch.setattr(services.transaction, "on_commit", lambda function: function())
    corpus = corpora.corpus_create(actor=owner.membership, name="Competitors")
    other_port = f"http://127.0.0.1:{web_settings.port + 1}/"
    for url in (web_settings.url("/to-private"), other_port, web_settings.url("/slow")):
        services.url_add(actor=owner.membership, corpus=corpus, url=url)
    outcomes = {page.url: page.outcome for page in WebPage.objects.filter(corpus=corpus)}
    assert sorted(outcomes.values()) == ["failed", "refused", "refused"], outcomes
    card = login(owner.membership.user).get(
        reverse("web_pages", kwargs={"slug": owner.workspace.slug, "corpus_slug": corpus.slug})
    )
    rows = _rows(card.content)
    private = " ".join(rows[web_settings.url("/to-private")].text_content().split())
    assert "10.20.30.40 resolves to 10.20.30.40, a private" in private
    assert "To allow it, a server administrator adds 10.20.30.40 to WEB_FETCH_ALLOWED_HOSTS" in private
    assert "restarts the web server and the worker" in private
    assert "Fetch again" not in private
    port = " ".join(rows[other_port].text_content().split())
    assert f"adds 127.0.0.1:{web_settings.port + 1} to WEB_FETCH_ALLOWED_HOSTS" in port
    assert "Fetch again" not in port
    slow = " ".join(rows[web_settings.url("/slow")].text_content().split())
    assert "WEB_FETCH_ALLOWED_HOSTS" not in slow
    assert "Fetch again" in slow  # a timeout may pass


def test_a_run_waiting_on_another_workers_fetch_is_told_the_refusal_without_the_administrators_note() -> None:
    stored = (
        "refused: 10.0.0.5 is a private address. To allow it, a server administrator adds intranet.example to "
        "WEB_FETCH_ALLOWED_HOSTS (a comma-separated list in the server's environment or .env), restarts the web "
        "server and the worker, and adds the page again."
    )
    assert services._refusal(stored) == "refused: 10.0.0.5 is a private address."
