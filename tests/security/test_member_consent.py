"""Probe item 3: an owner added any account to a workspace by its username, with no consent (then sent it digest
e-mails with a subject of their choosing), and the form said "No user called 'x'" (a username oracle). An account
now joins only by accepting an invitation, and the form has no username to probe."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from research.models import Membership
from tests.research.investigations.conftest import Team

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def test_no_account_is_added_without_accepting_and_no_name_is_revealed(
    team: Team, login: Callable[[User], Client], make_user: Callable[..., User]
) -> None:
    stranger = make_user("stranger")
    stranger.email = "stranger@example.com"
    stranger.save()
    owner = login(team.owner.user)
    page = owner.get(f"/w/{team.workspace.slug}/").content.decode()
    assert 'name="username"' not in page  # no form takes a username
    direct = owner.post(f"/w/{team.workspace.slug}/members/", {"username": "stranger", "role": "owner"})
    assert direct.status_code in (404, 405)
    answers = []
    for email in ("stranger@example.com", "nobody@example.com"):  # an account's address, and no account's
        answer = owner.post(
            reverse("invitation_create", kwargs={"slug": team.workspace.slug}),
            {"email": email, "role": "viewer"},
            headers=HX,
        )
        answers.append((answer.status_code, re.sub(r"\S+@example\.com|/invite/[\w-]+/", "X", answer.content.decode())))
    assert answers[0][0] == answers[1][0] == 200
    assert "stranger" not in answers[0][1]  # the answer does not say the address has an account
    assert not Membership.objects.filter(user=stranger).exists()  # invited, not added
    assert len(mail.outbox) == 2
