"""The Timeline card on an investigation's page and its downloads: for the members who may read it, 404 for the
others; an event stated by two runs once, a price that changed with both values."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from markdown_it import MarkdownIt

from research.investigations import services
from research.models import Investigation, ReportEdit, Visibility
from research.writing.edits import claim_key
from tests.research.investigations.conftest import Team, claim
from tests.research.timeline.conftest import finished_with

pytestmark = pytest.mark.django_db

HIRE = "Halvorix appointed Dana Okonkwo as VP of Engineering on 4 November 2025."


def _watched(team: Team) -> Investigation:
    """A private investigation of two runs: the same hire in both, the Standard plan from $70 to $50."""
    first = finished_with(team, {"leadership": [HIRE], "pricing": ["Standard $70 /month minimum usage"]})
    investigation = services.investigation_create(actor=team.author, run=first, title="Halvorix watch")
    services.investigation_share(actor=team.author, investigation=investigation, visibility=Visibility.PRIVATE)
    second = finished_with(team, {"leadership": [HIRE], "pricing": ["Standard $50 /month minimum usage"]})
    services.investigation_add_run(actor=team.author, investigation=investigation, run=second)
    return investigation


def _url(team: Team, investigation: Investigation, name: str = "investigation_page", **extra: str) -> str:
    return reverse(name, kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk, **extra})


def test_a_member_sees_the_card_with_one_event_and_both_prices(team: Team, login: Callable[[User], Client]) -> None:
    investigation = _watched(team)
    page = login(team.author.user).get(_url(team, investigation)).content.decode()
    card = page[page.index('id="timeline"') :]
    card = card[: card.index("</section>")]
    assert card.count("<li>") == 1
    for shown in ("4 November 2025", "Leadership change", HIRE, "in 2 runs", "$70 /month", "$50 /month", "changed"):
        assert shown in card
    assert _url(team, investigation, "timeline_export", fmt="csv") in card


def test_the_downloads_are_files_named_after_the_investigation(team: Team, login: Callable[[User], Client]) -> None:
    investigation = _watched(team)
    client = login(team.owner.user)  # a workspace owner reads every investigation
    markdown = client.get(_url(team, investigation, "timeline_export", fmt="md"))
    assert markdown.status_code == 200
    assert markdown["Content-Type"].startswith("text/markdown")
    filename = f'attachment; filename="investigation-{investigation.pk}-timeline.md"'
    assert markdown["Content-Disposition"] == filename
    text = markdown.content.decode()
    assert text.count(f": {HIRE}") == 1  # its line (its quote follows)
    assert "**4 November 2025**" in text
    assert text.index("$70 /month") < text.index("$50 /month")
    exported = client.get(_url(team, investigation, "timeline_export", fmt="csv"))
    assert exported["Content-Disposition"] == filename.replace(".md", ".csv")
    rows = list(csv.DictReader(io.StringIO(exported.content.decode())))
    assert [(r["type"], r["date"], r["kind_or_plan"], r["price"]) for r in rows][:1] == [
        ("event", "2025-11-04", "Leadership change", "")
    ]
    assert [r["price"] for r in rows if r["type"] == "price"] == ["$70 /month", "$50 /month"]
    assert client.get(_url(team, investigation, "timeline_export", fmt="pdf")).status_code == 404


@pytest.mark.parametrize("who", ["editor", "viewer", "outsider"])
def test_who_may_not_read_the_investigation_gets_404(team: Team, login: Callable[[User], Client], who: str) -> None:
    investigation = _watched(team)
    response = login(team.member(who).user).get(_url(team, investigation, "timeline_export", fmt="md"))
    assert response.status_code == 404
    assert "Okonkwo" not in response.content.decode()


def test_a_claim_an_analyst_struck_is_no_event(team: Team, login: Callable[[User], Client]) -> None:
    investigation = _watched(team)
    run = investigation.runs.order_by("created_at").first()
    assert run is not None
    client = login(team.author.user)
    key = claim_key(claim(HIRE, doc="leadership"))
    url = reverse("edit_strike", kwargs={"slug": team.workspace.slug, "run_id": run.pk})
    assert client.post(url, {"key": key, "reason": "He declined the offer"}).status_code == 302
    assert ReportEdit.objects.count() == 1
    page = client.get(_url(team, investigation)).content.decode()
    card = page[page.index('id="timeline"') :]
    assert HIRE not in card[: card.index("</section>")]


def test_the_markdown_download_cannot_carry_a_documents_links_or_html(
    team: Team, login: Callable[[User], Client]
) -> None:
    trap = "Halvorix launched [Harbor](javascript:alert(1)) <img src=x onerror=alert(2)> on 10 June 2026."
    run = finished_with(team, {"news": [trap]})
    investigation = services.investigation_create(actor=team.author, run=run, title="Halvorix <b>watch</b>")
    text = login(team.author.user).get(_url(team, investigation, "timeline_export", fmt="md")).content.decode()
    html = MarkdownIt("commonmark").render(text)
    assert "10 June 2026" in text
    assert "<a " not in html
    assert "<img" not in html
    assert "<b>" not in html
