"""Read-only share links: unguessable, revocable, expiring, logged; they show the report and its cited passages
and nothing else of the workspace."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from research.investigations import services as investigations
from research.models import Chunk, Document, Run, RunStatus, ShareLink, ShareLinkAccess
from research.platform.tokens import token_digest
from research.sharing import services
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db

CITED = "Halvorix opened a Berlin office."
SECRET = "The board does not know yet that Halvorix is for sale."


def _shared(team: Team) -> tuple[services.NewLink, Run]:
    run = finished_run(team, claims=[CITED])
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    document = Document.objects.create(
        corpus=team.corpus,
        doc_id="press",
        title="Press release",
        source_name="press.md",
        kind="text",
        content_hash="h",
        chunk_count=4,
    )
    passages = [f"Today {CITED} More soon.", "Berlin, 4 June 2026.", "Contact: press@halvorix.example"]
    for index, text in enumerate(passages):  # the report cites press#0; press#1 is its context, press#2 is not
        Chunk.objects.create(document=document, index=index, chunk_id=f"press#{index}", text=text)
    other = Document.objects.create(
        corpus=team.corpus, doc_id="memo", title="Memo", source_name="memo.md", kind="text", content_hash="m"
    )
    Chunk.objects.create(document=other, index=0, chunk_id="memo#0", text=SECRET)
    return services.share_link_create(actor=team.author, investigation=investigation, run=run, label="board"), run


def test_the_token_is_long_random_and_only_its_digest_is_kept(team: Team) -> None:
    made, _ = _shared(team)
    assert len(made.token) >= 43  # 32 random bytes, URL-safe base64: 256 bits
    stored = ShareLink.objects.get()
    assert stored.token_sha256 == token_digest(made.token)
    assert made.token not in str(list(ShareLink.objects.values()))


def test_anyone_with_the_link_reads_the_report_and_the_cited_passage_with_its_context(team: Team) -> None:
    made, run = _shared(team)
    visitor = Client()
    page = visitor.get(f"/s/{made.token}/", REMOTE_ADDR="203.0.113.7")
    html = page.content.decode()
    assert page.status_code == 200
    assert CITED in html
    assert "Halvorix watch" in html
    assert page["Referrer-Policy"] == "no-referrer"
    assert "private" in page["Cache-Control"]
    assert "ws-connect" not in html
    assert "/w/" not in html
    chip = re.search(r'href="(c/[^"]+)"', html)
    assert chip is not None
    passage = visitor.get(f"/s/{made.token}/" + chip.group(1).replace("&amp;", "&"), REMOTE_ADDR="203.0.113.7")
    body = passage.content.decode()
    assert passage.status_code == 200
    assert '<mark class="quote">Halvorix opened a Berlin office</mark>' in body  # as folding matches it
    assert "Berlin, 4 June 2026." in body  # its neighbour, for context
    assert "Contact: press@halvorix.example" not in body  # two passages away: not context
    assert SECRET not in body
    assert [(a.ip, a.path) for a in ShareLinkAccess.objects.order_by("id")] == [
        ("203.0.113.7", f"/s/{made.token}/"),
        ("203.0.113.7", f"/s/{made.token}/c/press#0/"),
    ]
    assert ShareLink.objects.get().access_count == 2
    assert run.pk


def test_nothing_but_the_cited_passages_opens(team: Team, login: Callable[[User], Client]) -> None:
    made, run = _shared(team)
    visitor = Client()
    assert visitor.get(f"/s/{made.token}/c/memo%230/").status_code == 404  # a chunk of the corpus, not cited
    assert SECRET not in visitor.get(f"/s/{made.token}/c/memo%230/").content.decode()
    assert visitor.get(f"/s/{made.token}/c/press%231/").status_code == 404  # its neighbour is context, not a page
    assert visitor.get(f"/s/{made.token}/c/press%230/").status_code == 200
    workspace_pages = [
        reverse("run_page", kwargs={"slug": team.workspace.slug, "run_id": run.pk}),
        reverse("corpus_detail", kwargs={"slug": team.workspace.slug, "corpus_slug": team.corpus.slug}),
        reverse("run_detail_json", kwargs={"slug": team.workspace.slug, "run_id": run.pk}),
    ]
    for url in workspace_pages:  # the link is no key to the workspace
        assert visitor.get(url).status_code in (302, 401)


def test_revoked_expired_and_guessed_links_are_not_found(team: Team) -> None:
    made, _ = _shared(team)
    visitor = Client()
    assert visitor.get(f"/s/{made.token[:-2]}xy/").status_code == 404
    assert visitor.get("/s/" + "a" * 300 + "/").status_code == 404
    ShareLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert visitor.get(f"/s/{made.token}/").status_code == 404
    ShareLink.objects.update(expires_at=timezone.now() + timedelta(days=1))
    assert visitor.get(f"/s/{made.token}/").status_code == 200
    link = ShareLink.objects.select_related("investigation").get()
    with pytest.raises(PermissionDenied):
        services.share_link_revoke(actor=team.editor, link=link)
    services.share_link_revoke(actor=team.owner, link=link)
    assert visitor.get(f"/s/{made.token}/").status_code == 404
    assert visitor.get(f"/s/{made.token}/c/press%230/").status_code == 404
    assert ShareLinkAccess.objects.count() == 1  # only the access through a live link


def test_only_managers_share_and_only_finished_runs_of_the_investigation(team: Team) -> None:
    run = finished_run(team, claims=[CITED])
    investigation = investigations.investigation_create(actor=team.author, run=run)
    with pytest.raises(PermissionDenied):
        services.share_link_create(actor=team.editor, investigation=investigation, run=run)
    stranger = finished_run(team, claims=["x."])
    with pytest.raises(ValidationError, match="a run of this investigation"):
        services.share_link_create(actor=team.author, investigation=investigation, run=stranger)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING)
    with pytest.raises(ValidationError, match="finished"):
        services.share_link_create(actor=team.author, investigation=investigation, run=Run.objects.get(pk=run.pk))
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED)
    with pytest.raises(ValidationError, match="future"):
        services.share_link_create(
            actor=team.author, investigation=investigation, run=run, expires_at=timezone.now() - timedelta(days=1)
        )


def test_the_page_creates_shows_once_and_revokes_links(team: Team, login: Callable[[User], Client]) -> None:
    run = finished_run(team, claims=[CITED])
    investigation = investigations.investigation_create(actor=team.author, run=run)
    client = login(team.author.user)
    kwargs = {"slug": team.workspace.slug, "investigation_id": investigation.pk}
    made = client.post(
        reverse("share_link_create", kwargs=kwargs),
        {"run": run.pk, "expires": "7", "label": "board"},
        headers={"HX-Request": "true"},
    )
    url = re.search(r'value="(http://testserver/s/[^"]+/)"', made.content.decode())
    assert made.status_code == 200
    assert url is not None
    assert Client().get(url.group(1)).status_code == 200
    again = client.get(reverse("investigation_page", kwargs=kwargs)).content.decode()
    assert url.group(1) not in again
    assert "board" in again
    link = ShareLink.objects.get()
    assert timedelta(days=6, hours=23) < link.expires_at - timezone.now() <= timedelta(days=7)
    refused = client.post(
        reverse("share_link_create", kwargs=kwargs),
        {"run": run.pk, "expires": "forever"},
        headers={"HX-Request": "true"},
    )
    assert refused.status_code == 422
    assert "Select a valid choice" in refused.content.decode()
    assert (
        login(team.editor.user)
        .post(reverse("share_link_create", kwargs=kwargs), {"run": run.pk, "expires": "7"})
        .status_code
        == 403
    )
    client.post(reverse("share_link_revoke", kwargs={**kwargs, "link_id": link.pk}))
    assert Client().get(url.group(1)).status_code == 404
