"""Investigation pages and every surface of a run in a private investigation, per role: pages, partials, JSON,
exports, document views and the socket; members who may not read it get what a stranger gets (404 / 4403)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client
from django.urls import reverse

from context1_web.asgi import application
from research.investigations import services
from research.models import Document, Investigation, Run, Visibility
from research.platform.realtime import CLOSE_FORBIDDEN
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db

SURFACES = {
    "run page": ("run_page", {}),
    "run graph partial": ("run_graph", {}),
    "run JSON": ("run_detail_json", {}),
    "run events JSON": ("run_events", {}),
    "report export": ("report_export", {"fmt": "md"}),
    "run document": ("run_document", {"doc_id": "press"}),
}


def _private(team: Team) -> tuple[Investigation, Run]:
    run = finished_run(team, claims=["Halvorix opened a Berlin office."])
    investigation = services.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    services.investigation_share(actor=team.author, investigation=investigation, visibility=Visibility.PRIVATE)
    Document.objects.create(
        corpus=team.corpus, doc_id="press", title="Press release", source_name="press.md", kind="text", content_hash="h"
    )
    return investigation, run


def _client(team: Team, name: str, login: Callable[[User], Client]) -> Client:
    return Client() if name == "anonymous" else login(team.member(name).user)


@pytest.mark.parametrize("surface", SURFACES)
@pytest.mark.parametrize(
    ("who", "status"),
    [("author", 200), ("owner", 200), ("editor", 404), ("viewer", 404), ("outsider", 404), ("anonymous", None)],
)
def test_a_private_investigations_run_on_every_surface(
    team: Team, login: Callable[[User], Client], surface: str, who: str, status: int | None
) -> None:
    _, run = _private(team)
    name, extra = SURFACES[surface]
    url = reverse(name, kwargs={"slug": team.workspace.slug, "run_id": run.pk, **extra})
    response = _client(team, who, login).get(url)
    if status is None:  # logged out: JSON answers 401, pages send to the login page
        assert response.status_code in (302, 401)
        assert "Berlin" not in response.content.decode()
        return
    assert response.status_code == status, (surface, who)
    if status == 404:
        assert "Berlin" not in response.content.decode()
        assert "Halvorix watch" not in response.content.decode()


@pytest.mark.parametrize(
    "page",
    [
        "investigation_page",
        "investigation_compare",
        "investigation_delete",
        "investigation_edit",
        "investigation_share",
    ],
)
@pytest.mark.parametrize(("who", "status"), [("editor", 404), ("viewer", 404), ("outsider", 404)])
def test_the_investigations_own_pages_are_404_to_those_who_may_not_read_it(
    team: Team, login: Callable[[User], Client], page: str, who: str, status: int
) -> None:
    investigation, _ = _private(team)
    url = reverse(page, kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk})
    client = login(team.member(who).user)
    response = (
        client.post(url, {"title": "mine"})
        if page in ("investigation_edit", "investigation_share")
        else client.get(url)
    )
    assert response.status_code == status
    assert Investigation.objects.get(pk=investigation.pk).title == "Halvorix watch"


def test_the_list_shows_only_what_each_member_may_read(team: Team, login: Callable[[User], Client]) -> None:
    _private(team)
    shared = services.investigation_create(actor=team.author, run=finished_run(team, claims=["x."]), title="Team notes")
    url = reverse("investigation_index", kwargs={"slug": team.workspace.slug})
    assert "Halvorix watch" in login(team.owner.user).get(url).content.decode()
    viewer_page = login(team.viewer.user).get(url).content.decode()
    assert "Team notes" in viewer_page
    assert "Halvorix watch" not in viewer_page
    run_list = login(team.viewer.user).get(reverse("run_index", kwargs={"slug": team.workspace.slug})).content.decode()
    assert "Team notes" in run_list
    assert "Halvorix watch" not in run_list
    assert shared.pk


def test_search_filters_and_sort(team: Team, login: Callable[[User], Client]) -> None:
    first = services.investigation_create(
        actor=team.author, run=finished_run(team, claims=["a."]), title="Halvorix pricing"
    )
    services.investigation_update(
        actor=team.author, investigation=first, title="Halvorix pricing", notes="Watch the EU tier", tags="pricing"
    )
    services.investigation_create(
        actor=team.editor, run=finished_run(team, claims=["b."], template="question"), title="Who is Dana?"
    )
    client = login(team.owner.user)
    url = reverse("investigation_index", kwargs={"slug": team.workspace.slug})

    def titles(**query: str) -> list[str]:
        page = client.get(url, query, headers={"HX-Request": "true"}).content.decode()
        return [t for t in ("Halvorix pricing", "Who is Dana?") if t in page]

    assert titles(q="eu tier") == ["Halvorix pricing"]  # words of the notes
    assert titles(q="pricing") == ["Halvorix pricing"]  # a tag or the title
    assert titles(template="question") == ["Who is Dana?"]
    assert titles(owner=str(team.editor.user_id)) == ["Who is Dana?"]
    assert titles(q="nothing-like-this") == []
    services.investigation_archive(actor=team.author, investigation=first, archived=True)
    assert titles() == ["Who is Dana?"]
    assert titles(archived="on") == ["Halvorix pricing"]


def test_save_a_run_from_its_page_then_compare_two_runs(team: Team, login: Callable[[User], Client]) -> None:
    older = finished_run(team, claims=["Halvorix opened a Berlin office.", "Halvorix charges 49 dollars a seat."])
    client = login(team.author.user)
    page = client.get(reverse("run_page", kwargs={"slug": team.workspace.slug, "run_id": older.pk})).content.decode()
    assert "Save as an investigation" in page
    saved = client.post(
        reverse("run_save", kwargs={"slug": team.workspace.slug, "run_id": older.pk}), {"title": "Halvorix"}
    )
    investigation = Investigation.objects.get()
    assert saved.status_code == 302
    assert saved["Location"].endswith(f"/investigations/{investigation.pk}/")
    newer = finished_run(team, claims=["Halvorix charges 49 dollars a seat.", "Halvorix hired a CFO."])
    added = client.post(
        reverse("run_save", kwargs={"slug": team.workspace.slug, "run_id": newer.pk}),
        {"investigation": investigation.pk},
        headers={"HX-Request": "true"},
    )
    assert added.status_code == 200
    assert added["HX-Redirect"].endswith(f"/investigations/{investigation.pk}/")
    compare = reverse(
        "investigation_compare", kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk}
    )
    body = client.get(compare, {"older": newer.pk, "newer": older.pk}).content.decode()  # given in either order
    assert body.index("New claims") < body.index("Halvorix hired a CFO.") < body.index("No longer supported")
    assert body.index("No longer supported") < body.index("Halvorix opened a Berlin office.")
    assert f"/runs/{newer.pk}/d/press/?highlight=press%230" in body  # the new claim's evidence, in its run's viewer
    refused = client.get(compare, {"older": older.pk, "newer": older.pk}, headers={"HX-Request": "true"})
    assert refused.status_code == 422
    assert "Choose two different runs." in refused.content.decode()


def test_the_edit_form_shows_its_errors_and_renders_notes_safely(team: Team, login: Callable[[User], Client]) -> None:
    investigation = services.investigation_create(actor=team.author, run=finished_run(team, claims=["a."]))
    url = reverse("investigation_edit", kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk})
    client = login(team.author.user)
    refused = client.post(url, {"title": " ", "notes": "", "tags": ""}, headers={"HX-Request": "true"})
    assert refused.status_code == 422
    assert "Give the investigation a title." in refused.content.decode()
    notes = "**Plan** <script>alert(1)</script> [x](javascript:alert(1))"
    client.post(url, {"title": "Watch", "notes": notes, "tags": "eu"})
    page = client.get(
        reverse("investigation_page", kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk})
    )
    html = page.content.decode()
    assert "<strong>Plan</strong>" in html
    assert "<script>alert(1)</script>" not in html
    assert 'href="javascript:' not in html


def test_a_viewer_reads_but_cannot_edit_or_rerun(team: Team, login: Callable[[User], Client]) -> None:
    investigation = services.investigation_create(actor=team.author, run=finished_run(team, claims=["a."]))
    client = login(team.viewer.user)
    kwargs = {"slug": team.workspace.slug, "investigation_id": investigation.pk}
    page = client.get(reverse("investigation_page", kwargs=kwargs)).content.decode()
    assert "Run again" not in page
    assert "Edit title" not in page
    assert "Sharing" not in page
    assert client.post(reverse("investigation_edit", kwargs=kwargs), {"title": "x"}).status_code == 403
    assert client.post(reverse("investigation_rerun", kwargs=kwargs)).status_code == 403
    assert client.post(reverse("investigation_share", kwargs=kwargs), {"visibility": "private"}).status_code == 403


@pytest.fixture
def _close_thread_connections() -> object:
    yield
    connections.close_all()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_close_thread_connections")
async def test_the_run_socket_follows_the_investigations_visibility(
    team: Team, login: Callable[[User], Client]
) -> None:
    investigation, run = await sync_to_async(_private)(team)

    def headers(user: User) -> list[tuple[bytes, bytes]]:
        client = login(user)
        return [
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
        ]

    editor = await sync_to_async(headers)(team.editor.user)
    refused = WebsocketCommunicator(application, f"/ws/runs/{run.pk}/", headers=editor)
    assert await refused.connect(timeout=5) == (False, CLOSE_FORBIDDEN)
    await sync_to_async(services.investigation_share)(
        actor=team.author,
        investigation=investigation,
        visibility=Visibility.MEMBERS,
        members={team.editor.user_id: "viewer"},
    )
    allowed = WebsocketCommunicator(application, f"/ws/runs/{run.pk}/", headers=editor)
    connected, _ = await allowed.connect(timeout=5)
    assert connected
    await sync_to_async(services.investigation_share)(
        actor=team.author, investigation=investigation, visibility=Visibility.PRIVATE
    )
    output = await allowed.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": CLOSE_FORBIDDEN}, json.dumps(output)
