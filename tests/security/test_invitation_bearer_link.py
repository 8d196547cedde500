"""Probe item 2: an invitation to an address was accepted by whichever logged-in account opened its link, so a
different user became an owner through an owner invitation meant for someone else. An existing account now joins
only by a second link, bound to it and mailed to the invited address when it asks; an account created from the
link is the invited address's."""

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
LINK = re.compile(r"http://\S+?(/invite/[\w-]+/)")


def test_someone_else_holding_an_owners_invitation_link_cannot_join(
    team: Team, login: Callable[[User], Client], make_user: Callable[..., User]
) -> None:
    login(team.owner.user).post(
        reverse("invitation_create", kwargs={"slug": team.workspace.slug}),
        {"email": "nina@example.com", "role": "owner"},
        headers={"HX-Request": "true"},
    )
    found = LINK.search(mail.outbox[-1].body)
    assert found is not None
    link = found.group(1)
    eve = login(team.outsider.user)  # the link reached eve (forwarded, leaked)
    eve.post(link)  # what joined her before; now it asks for a confirmation mailed to nina@example.com
    assert not Membership.objects.filter(workspace=team.workspace, user=team.outsider.user).exists()
    assert mail.outbox[-1].to == ["nina@example.com"]  # the confirmation goes to the invited address, not to eve
    confirmation = LINK.search(mail.outbox[-1].body)
    assert confirmation is not None
    nina_opens = Client().get(confirmation.group(1)).content.decode()  # nina reads it: it names eve's account
    assert "confirms that the account <strong>eve</strong> joins" in nina_opens
    assert 'name="password1"' not in nina_opens  # no account is made from it
    sam = make_user("sam")
    assert login(sam).post(confirmation.group(1)).status_code != 302  # nor does any other account join by it
    assert not Membership.objects.filter(workspace=team.workspace, user__in=[team.outsider.user, sam]).exists()
