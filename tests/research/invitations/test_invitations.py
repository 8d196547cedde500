"""Invitations: an owner invites an address with a role; the e-mailed link creates the account or joins an
existing one, once; it expires, is revoked, and is replaced by a new invitation of the same address."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import timezone

from research.invitations import selectors, services
from research.invitations.views import _join_or_say
from research.models import Invitation, Membership, Role
from tests.research.investigations.conftest import Team

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
PASSWORD = "a-long-Passphrase-for-tests-42"


def _invite(team: Team, login: Callable[[User], Client], email: str = "Nina@Example.com", role: str = "editor") -> str:
    """The owner invites ``email`` from the workspace page; returns the link of the e-mail it sent."""
    answer = login(team.owner.user).post(
        reverse("invitation_create", kwargs={"slug": team.workspace.slug}), {"email": email, "role": role}, headers=HX
    )
    assert answer.status_code == 200, answer.content.decode()
    found = re.search(r"(http://\S+/invite/[\w-]+/)", mail.outbox[-1].body)
    assert found is not None
    return found.group(1)


@override_settings(SITE_URL="http://research.test")
def test_an_owner_invites_by_e_mail_and_the_link_creates_the_account(
    team: Team, login: Callable[[User], Client]
) -> None:
    link = _invite(team, login)
    message = mail.outbox[0]
    assert message.to == ["nina@example.com"]
    assert "olga invites you to Market team" in message.subject
    assert link.startswith("http://research.test/invite/")
    assert link in message.alternatives[0][0]
    invitation = Invitation.objects.get()
    assert link.rstrip("/").rsplit("/", 1)[1] not in invitation.token_sha256  # only the digest is kept
    visitor = Client()
    path = link.removeprefix("http://research.test")
    page = visitor.get(path).content.decode()
    assert "Create your account" in page
    assert "nina@example.com" in page
    weak = visitor.post(path, {"username": "nina", "password1": "123", "password2": "123"})
    assert weak.status_code == 422
    assert "too short" in weak.content.decode()
    taken = visitor.post(path, {"username": "olga", "password1": PASSWORD, "password2": PASSWORD})
    assert taken.status_code == 422
    assert "already exists" in taken.content.decode()
    joined = visitor.post(path, {"username": "nina", "password1": PASSWORD, "password2": PASSWORD})
    assert joined.status_code == 302
    assert joined["Location"] == f"/w/{team.workspace.slug}/"
    nina = User.objects.get(username="nina")
    assert nina.email == "nina@example.com"
    assert nina.check_password(PASSWORD)
    assert Membership.objects.get(workspace=team.workspace, user=nina).role == Role.EDITOR
    assert visitor.get(f"/w/{team.workspace.slug}/").status_code == 200  # logged in as nina
    used = Client().get(path)
    assert used.status_code == 404
    assert "no longer valid" in used.content.decode()


def test_someone_with_an_account_logs_in_and_joins(team: Team, login: Callable[[User], Client]) -> None:
    link = _invite(team, login, email="eve@example.com", role="viewer")
    path = link.split("testserver", 1)[-1] if "testserver" in link else "/" + link.split("/", 3)[3]
    anonymous = Client().get(path).content.decode()
    assert "/accounts/login/?next=/invite/" in anonymous
    eve = login(team.outsider.user)
    page = eve.get(path).content.decode()
    assert "confirm that you read <strong>eve@example.com</strong>" in page
    sent = eve.post(path).content.decode()  # a link for eve's account goes to the invited address
    assert "A confirmation link was sent to <strong>eve@example.com</strong>" in sent
    assert not Membership.objects.filter(workspace=team.workspace, user=team.outsider.user).exists()
    assert mail.outbox[-1].to == ["eve@example.com"]
    assert "Confirm that eve joins" in mail.outbox[-1].subject
    assert eve.get(path).status_code == 404  # the first link stopped working
    confirm = re.search(r"(http://\S+/invite/[\w-]+/)", mail.outbox[-1].body)
    assert confirm is not None
    second = "/" + confirm.group(1).split("/", 3)[3]
    assert "Join as <strong>eve</strong>" in eve.get(second).content.decode()
    assert eve.post(second).status_code == 302
    assert Membership.objects.get(workspace=team.workspace, user=team.outsider.user).role == Role.VIEWER
    assert Invitation.objects.get(accepted_at__isnull=False).accepted_by == team.outsider.user


def test_revoked_expired_replaced_and_guessed_links_do_nothing(team: Team, login: Callable[[User], Client]) -> None:
    first = "/" + _invite(team, login, email="sam@example.com").split("/", 3)[3]
    second = "/" + _invite(team, login, email="sam@example.com").split("/", 3)[3]  # replaces the first
    assert Client().get(first).status_code == 404
    assert Client().get(second).status_code == 200
    Invitation.objects.filter(revoked_at__isnull=True).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert Client().get(second).status_code == 404
    Invitation.objects.filter(revoked_at__isnull=True).update(expires_at=timezone.now() + timedelta(days=1))
    pending = Invitation.objects.get(revoked_at__isnull=True)
    revoke = reverse("invitation_revoke", kwargs={"slug": team.workspace.slug, "invitation_id": pending.pk})
    assert login(team.author.user).post(revoke).status_code == 403  # owners only
    assert login(team.owner.user).post(revoke, headers=HX).status_code == 200
    assert Client().get(second).status_code == 404
    assert Client().post(second, {"username": "sam", "password1": PASSWORD, "password2": PASSWORD}).status_code == 404
    assert not User.objects.filter(username="sam").exists()
    assert Client().get("/invite/" + "x" * 43 + "/").status_code == 404


def test_only_owners_invite_and_bad_addresses_and_members_are_refused(
    team: Team, login: Callable[[User], Client]
) -> None:
    url = reverse("invitation_create", kwargs={"slug": team.workspace.slug})
    assert login(team.author.user).post(url, {"email": "x@example.com", "role": "viewer"}).status_code == 403
    assert login(team.outsider.user).post(url, {"email": "x@example.com", "role": "viewer"}).status_code == 404
    owner = login(team.owner.user)
    bad = owner.post(url, {"email": "not an address", "role": "viewer"}, headers=HX)
    assert bad.status_code == 422
    assert "Enter a valid email address." in bad.content.decode()
    User.objects.filter(pk=team.viewer.user_id).update(email="vic@example.com")
    member = owner.post(url, {"email": "VIC@example.com", "role": "editor"}, headers=HX)
    assert member.status_code == 422
    assert "is already a member (vic)" in member.content.decode()
    assert not Invitation.objects.exists()
    assert mail.outbox == []
    with pytest.raises(PermissionDenied):
        services.invitation_create(actor=team.editor, email="y@example.com", role="viewer")


@override_settings(EMAIL_BACKEND="tests.research.schedules.test_digests.FlakyBackend")
def test_when_the_e_mail_fails_the_owner_gets_the_link_to_send(team: Team, login: Callable[[User], Client]) -> None:
    from tests.research.schedules.test_digests import FlakyBackend

    FlakyBackend.refused = {"kim@example.com"}
    answer = login(team.owner.user).post(
        reverse("invitation_create", kwargs={"slug": team.workspace.slug}),
        {"email": "kim@example.com", "role": "viewer"},
        headers=HX,
    )
    html = answer.content.decode()
    assert answer.status_code == 200
    assert "could not be sent" in html
    link = re.search(r'id="new-invite-url" readonly value="(http://[^"]+)"', html)
    assert link is not None
    assert Client().get("/" + link.group(1).split("/", 3)[3]).status_code == 200
    assert "550 kim@example.com refused" in Invitation.objects.get().mail_error
    FlakyBackend.refused = set()
    page = login(team.owner.user).get(f"/w/{team.workspace.slug}/").content.decode()
    assert "kim@example.com" in page
    assert "e-mail not sent" in page


def test_an_address_that_has_an_account_logs_in_instead_of_making_a_second(
    team: Team, login: Callable[[User], Client]
) -> None:
    User.objects.filter(pk=team.outsider.user_id).update(email="eve@example.com")
    link = _invite(team, login, email="EVE@example.com", role="viewer")
    path = "/" + link.split("/", 3)[3]
    page = Client().get(path).content.decode()
    assert "An account with this address exists" in page
    assert 'name="password1"' not in page
    Client().post(path, {"username": "eve2", "password1": PASSWORD, "password2": PASSWORD})
    assert not User.objects.filter(username="eve2").exists()
    assert Invitation.objects.get().accepted_at is None


def test_an_invitation_spent_meanwhile_is_said_not_a_server_error(team: Team, login: Callable[[User], Client]) -> None:
    link = _invite(team, login, email="kai@example.com", role="viewer")
    path = "/" + link.split("/", 3)[3]
    eve = login(team.outsider.user)
    eve.get(path)
    Invitation.objects.update(revoked_at=timezone.now())  # revoked between the page and the click
    answer = eve.post(path)
    assert answer.status_code == 404  # the link no longer exists
    invitation = Invitation.objects.get()
    Invitation.objects.filter(pk=invitation.pk).update(revoked_at=None, for_user=team.outsider.user)  # eve's link
    live = selectors.invitation_live(token=path.strip("/").split("/")[-1])
    Invitation.objects.filter(pk=invitation.pk).update(accepted_at=timezone.now())
    request = RequestFactory().post(path)
    request.user = team.outsider.user
    said = _join_or_say(request, live, {"invitation": live, "token": "t", "login_url": "/accounts/login/"})
    assert said.status_code == 409
    assert "just been used, revoked or has expired" in said.content.decode()
