from __future__ import annotations

import re
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


def test_a_viewer_sees_no_invitation_form(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, vic = make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "viewer"})
    page = login(vic).get(f"/w/{workspace.slug}/").content.decode()
    assert "Send invitation" not in page
    assert "Send invitation" in login(ada).get(f"/w/{workspace.slug}/").content.decode()


def _remove_url(workspace: Workspace, member: Membership) -> str:
    return f"/w/{workspace.slug}/members/{member.pk}/remove/"


def test_an_owner_removes_a_member_with_htmx_and_without(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, bob, vic = make_user(), make_user("bob"), make_user("vic")
    workspace = make_workspace(ada, members={bob: "editor", vic: "viewer"})
    owner = login(ada)
    page = owner.get(f"/w/{workspace.slug}/").content.decode()
    assert len(re.findall(r'action="/w/[^"]+/members/\d+/remove/"', page)) == 3  # a form on every member's row
    response = owner.post(_remove_url(workspace, Membership.objects.get(user=bob)), **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="members"')
    assert "bob" not in body
    assert "vic" in body
    plain = owner.post(_remove_url(workspace, Membership.objects.get(user=vic)))
    assert plain.status_code == 302
    assert plain["Location"] == f"/w/{workspace.slug}/"
    assert list(Membership.objects.filter(workspace=workspace).values_list("user__username", flat=True)) == [
        ada.username
    ]
    assert login(bob).get(f"/w/{workspace.slug}/").status_code == 404


def test_removing_the_last_owner_is_refused_with_a_clear_error(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada = make_user()
    workspace = make_workspace(ada)
    mine = Membership.objects.get(user=ada)
    response = login(ada).post(_remove_url(workspace, mine), **HTMX)
    assert response.status_code == 422
    assert "last owner" in response.content.decode()
    assert response.content.decode().lstrip().startswith('<section id="members"')
    plain = login(ada).post(_remove_url(workspace, mine))
    assert plain.status_code == 422
    assert "last owner" in plain.content.decode()
    assert Membership.objects.filter(pk=mine.pk).exists()


def test_an_owner_who_leaves_goes_home(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, bob = make_user(), make_user()
    workspace = make_workspace(ada, members={bob: "owner"})
    response = login(ada).post(_remove_url(workspace, Membership.objects.get(user=ada)), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/"
    assert not Membership.objects.filter(user=ada).exists()


def test_only_owners_see_or_use_the_remove_action(make_user, make_workspace, login) -> None:  # type: ignore[no-untyped-def]
    ada, vic, eve = make_user(), make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "editor"})
    theirs = make_workspace(eve)
    target = Membership.objects.get(user=ada, workspace=workspace)
    assert "/remove/" not in login(vic).get(f"/w/{workspace.slug}/").content.decode()
    assert login(vic).post(_remove_url(workspace, target)).status_code == 403
    assert login(eve).post(_remove_url(workspace, target)).status_code == 404  # not a member: no hint
    eves = Membership.objects.get(workspace=theirs)
    assert login(ada).post(_remove_url(workspace, eves)).status_code == 404  # a member of another workspace
    assert login(ada).get(_remove_url(workspace, target)).status_code == 405
    assert Membership.objects.count() == 3
