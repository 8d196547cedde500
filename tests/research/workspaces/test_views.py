from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.test import Client

from research.models import Membership, Role, Workspace

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_it_sends_anonymous_users_to_the_login_page(client: Client, db: None) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_login_page_logs_a_user_in(client: Client, make_user: Callable[..., User]) -> None:
    make_user("ada", password="a-long-password-1")
    assert client.get("/accounts/login/").status_code == 200
    response = client.post("/accounts/login/", {"username": "ada", "password": "a-long-password-1"})
    assert response.status_code == 302
    assert response["Location"] == "/"
    wrong = Client().post("/accounts/login/", {"username": "ada", "password": "nope"})
    assert wrong.status_code == 200
    assert "correct username and password" in wrong.content.decode()


def test_it_lists_only_the_users_workspaces(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, bob = make_user(), make_user()
    make_workspace(ada, name="Ada's research")
    make_workspace(bob, name="Bob's secrets")
    page = login(ada).get("/").content.decode()
    assert "Ada&#x27;s research" in page
    assert "Bob" not in page


def test_it_creates_a_workspace_without_javascript(make_user, login) -> None:  # type: ignore[no-untyped-def]
    ada = make_user()
    response = login(ada).post("/", {"name": "Market watch", "description": "Competitors"})
    workspace = Workspace.objects.get(name="Market watch")
    assert response.status_code == 302
    assert response["Location"] == f"/w/{workspace.slug}/"
    assert Membership.objects.get(workspace=workspace, user=ada).role == Role.OWNER


def test_it_returns_the_list_partial_for_htmx(make_user, login) -> None:  # type: ignore[no-untyped-def]
    response = login(make_user()).post("/", {"name": "Market watch"}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="workspaces">')
    assert "<html" not in body
    assert "Market watch" in body


def test_it_rerenders_the_form_partial_with_errors(make_user, login) -> None:  # type: ignore[no-untyped-def]
    response = login(make_user()).post("/", {"name": ""}, **HTMX)
    assert response.status_code == 422
    assert "This field is required" in response.content.decode()
    assert not Workspace.objects.exists()


def test_a_non_member_gets_404_for_a_workspace(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, eve = make_user(), make_user()
    workspace = make_workspace(ada)
    assert login(eve).get(f"/w/{workspace.slug}/").status_code == 404
    assert (
        login(eve).post(f"/w/{workspace.slug}/members/", {"username": eve.username, "role": "owner"}).status_code == 404
    )
    assert not Membership.objects.filter(user=eve).exists()
    assert login(ada).get(f"/w/{workspace.slug}/").status_code == 200


def test_an_owner_adds_a_member_with_htmx(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, bob = make_user(), make_user("bob")
    workspace = make_workspace(ada)
    response = login(ada).post(f"/w/{workspace.slug}/members/", {"username": "bob", "role": "editor"}, **HTMX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="members"')
    assert Membership.objects.get(workspace=workspace, user=bob).role == Role.EDITOR
    again = login(ada).post(f"/w/{workspace.slug}/members/", {"username": "bob", "role": "viewer"}, **HTMX)
    assert again.status_code == 422
    assert "already a member" in again.content.decode()
    missing = login(ada).post(f"/w/{workspace.slug}/members/", {"username": "nobody", "role": "viewer"}, **HTMX)
    assert "No user called" in missing.content.decode()


def test_a_viewer_cannot_add_members(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, vic, eve = make_user(), make_user(), make_user("eve")
    workspace = make_workspace(ada, members={vic: "viewer"})
    page = login(vic).get(f"/w/{workspace.slug}/").content.decode()
    assert "Add member" not in page
    response = login(vic).post(f"/w/{workspace.slug}/members/", {"username": "eve", "role": "owner"})
    assert response.status_code == 403
    assert not Membership.objects.filter(user=eve).exists()
