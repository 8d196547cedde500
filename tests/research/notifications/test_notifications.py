"""The notifications page and the top bar's unread count: one's own notices only, opened and marked read, and
gone with the access to what they are about."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from research.investigations import services as investigations
from research.models import Membership, Notification, Visibility
from research.notifications.services import notifications_create
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db


def _notice(team: Team, title: str = "Halvorix watch: 2 new claims") -> Notification:
    run = finished_run(team, claims=["Halvorix opened a Berlin office."])
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    url = f"/w/{team.workspace.slug}/investigations/{investigation.pk}/"
    notifications_create(
        users=[team.viewer.user_id, team.author.user_id], investigation=investigation, title=title, url=url
    )
    return Notification.objects.get(user=team.viewer.user)


def test_the_top_bar_counts_unread_notices_and_opening_one_reads_it(
    team: Team, login: Callable[[User], Client]
) -> None:
    notice = _notice(team)
    viewer = login(team.viewer.user)
    home = viewer.get("/").content.decode()
    assert 'aria-label="1 unread"' in home
    listed = viewer.get("/notifications/").content.decode()
    assert "Halvorix watch: 2 new claims" in listed
    assert 'class="unread"' in listed
    opened = viewer.get(f"/notifications/{notice.pk}/")
    assert opened.status_code == 302
    assert opened["Location"] == notice.url
    assert 'aria-label="1 unread"' not in viewer.get("/").content.decode()
    assert Notification.objects.get(user=team.author.user).read_at is None  # only one's own


def test_nobody_opens_or_sees_another_users_notice(team: Team, login: Callable[[User], Client]) -> None:
    notice = _notice(team)
    assert login(team.editor.user).get(f"/notifications/{notice.pk}/").status_code == 404
    assert "Halvorix watch" not in login(team.outsider.user).get("/notifications/").content.decode()
    assert Client().get("/notifications/").status_code == 302  # to the login page


def test_a_notice_goes_with_the_access_to_what_it_is_about(team: Team, login: Callable[[User], Client]) -> None:
    notice = _notice(team)
    viewer = login(team.viewer.user)
    assert notice.investigation is not None
    investigations.investigation_share(
        actor=team.author, investigation=notice.investigation, visibility=Visibility.PRIVATE
    )
    assert "Halvorix watch" not in viewer.get("/notifications/").content.decode()
    assert 'aria-label="1 unread"' not in viewer.get("/").content.decode()
    investigations.investigation_share(
        actor=team.author, investigation=notice.investigation, visibility=Visibility.WORKSPACE
    )
    assert "Halvorix watch" in viewer.get("/notifications/").content.decode()
    Membership.objects.filter(pk=team.viewer.pk).delete()
    assert "Halvorix watch" not in viewer.get("/notifications/").content.decode()


def test_mark_all_read(team: Team, login: Callable[[User], Client]) -> None:
    _notice(team)
    viewer = login(team.viewer.user)
    assert viewer.post("/notifications/read/").status_code == 302
    assert not Notification.objects.filter(user=team.viewer.user, read_at__isnull=True).exists()
    assert Notification.objects.filter(user=team.author.user, read_at__isnull=True).exists()
