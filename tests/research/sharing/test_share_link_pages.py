"""What the share links' card and pages show (issue 34): the table names each link's run, revoking asks first
(a dialog with JavaScript, a page of its own without), and a revoked or unknown link answers the product's own
"not found" page, the same for both, so a public URL tells nothing about which links existed."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from research.investigations import services as investigations
from research.models import ShareLink
from research.sharing import services
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db

GONE = "This link was revoked or does not exist"


def _link(team: Team) -> tuple[services.NewLink, dict[str, object]]:
    run = finished_run(team, claims=["Halvorix opened a Berlin office."])
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    made = services.share_link_create(actor=team.author, investigation=investigation, run=run, label="board")
    return made, {"slug": team.workspace.slug, "investigation_id": investigation.pk}


def test_a_revoked_or_unknown_link_answers_the_products_not_found_page(team: Team) -> None:
    made, _ = _link(team)
    visitor = Client()
    unknown = visitor.get(f"/s/{made.token[:-2]}xy/")
    too_long = visitor.get("/s/" + "a" * 300 + "/")
    services.share_link_revoke(actor=team.owner, link=ShareLink.objects.select_related("investigation").get())
    revoked = visitor.get(f"/s/{made.token}/")
    passage = visitor.get(f"/s/{made.token}/c/press%230/")
    pages = [unknown, too_long, revoked, passage]
    assert [page.status_code for page in pages] == [404, 404, 404, 404]
    bodies = [page.content.decode() for page in pages]
    for body in bodies:
        assert GONE in body
        assert 'class="topbar"' in body  # the product's page, not Django's bare "Not Found"
        assert "Halvorix" not in body
        assert "board" not in body
    main = [body[body.index("<main") :] for body in bodies]
    assert main[0] == main[2] == main[3]  # revoked and unknown alike: the page does not say which
    assert "no-store" in revoked["Cache-Control"]
    assert revoked["Referrer-Policy"] == "no-referrer"


def test_the_links_table_names_the_run(team: Team, login: Callable[[User], Client]) -> None:
    _made, kwargs = _link(team)
    link = ShareLink.objects.get()
    page = login(team.author.user).get(reverse("investigation_page", kwargs=kwargs)).content.decode()
    card = page[page.index('id="share-links"') :]
    first_cell = re.search(r"<tbody>\s*<tr>\s*<td[^>]*>(.*?)</td>", card, re.S)
    assert first_cell is not None
    assert f">Run {link.run_id}</a>" in first_cell.group(1)
    assert not re.search(r"\d{4}-\d\d-\d\d", first_cell.group(1))  # the run's name, not a timestamp


def test_revoking_asks_first_with_and_without_javascript(team: Team, login: Callable[[User], Client]) -> None:
    _made, kwargs = _link(team)
    link = ShareLink.objects.get()
    author = login(team.author.user)
    revoke = reverse("share_link_revoke", kwargs={**kwargs, "link_id": link.pk})
    page = author.get(reverse("investigation_page", kwargs=kwargs)).content.decode()
    control = re.search(r"<[^>]*hx-post=\"" + re.escape(revoke) + r"\"[^>]*>", page)
    assert control is not None
    assert "hx-confirm=" in control.group(0)  # with JavaScript: a dialog first
    assert f'href="{revoke}"' in control.group(0)  # without: a page that asks
    asked = author.get(revoke)
    assert asked.status_code == 200
    body = asked.content.decode()
    assert "Revoke this share link?" in body
    assert f'action="{revoke}"' in body
    assert ShareLink.objects.get().revoked_at is None  # asking changes nothing
    assert login(team.editor.user).get(revoke).status_code == 403
    done = author.post(revoke)
    assert done.status_code == 302
    assert ShareLink.objects.get().revoked_at is not None
    assert "revoked" in author.get(revoke).content.decode()  # asking again after: it is already revoked
