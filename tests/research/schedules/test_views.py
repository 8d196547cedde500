"""The Schedule card of an investigation's page: who sees and does what, every form's error path, the test
e-mail, and each reader's own e-mail choice."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from research.investigations import services as investigations
from research.models import Investigation, Schedule, Visibility
from tests.research.investigations.conftest import Team, finished_run

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _investigation(team: Team) -> Investigation:
    run = finished_run(team, claims=["Halvorix opened a Berlin office."])
    return investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")


def _url(team: Team, investigation: Investigation, name: str = "investigation_page") -> str:
    return reverse(name, kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk})


WEEKLY = {
    "frequency": "weekly",
    "time_of_day": "08:00",
    "weekdays": ["0", "3"],
    "timezone": "Europe/Berlin",
    "notify": "changed",
}


def test_an_editor_schedules_it_and_every_reader_sees_when_it_runs(team: Team, login: Callable[[User], Client]) -> None:
    investigation = _investigation(team)
    author = login(team.author.user)
    page = author.get(_url(team, investigation)).content.decode()
    assert "Schedule it" in page
    assert "data-browser-timezone" in page
    with time_machine.travel("2026-12-02 12:00Z", tick=False):
        saved = author.post(_url(team, investigation, "schedule_save"), WEEKLY, headers=HX)
    html = saved.content.decode()
    assert saved.status_code == 200
    assert "Schedule saved." in html
    assert "Mondays and Thursdays at 08:00 (Europe/Berlin)" in html
    assert re.search(r"Next runs: <time [^>]+>Thu 3 Dec 2026, 08:00</time>", html)  # the next runs, in its zone
    viewer_page = login(team.viewer.user).get(_url(team, investigation)).content.decode()
    assert "Mondays and Thursdays at 08:00" in viewer_page
    assert "Save the schedule" not in viewer_page
    assert "You get its e-mails." in viewer_page
    listed = author.get(reverse("investigation_index", kwargs={"slug": team.workspace.slug})).content.decode()
    assert re.search(r'<span class="badge" title="Scheduled: next run 2026-12-03 07:00 UTC">scheduled</span>', listed)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"frequency": "cron", "cron": "*/5 * * * *"}, "at most once every 1 hour"),
        ({"frequency": "cron", "cron": "every monday"}, "is not a five-field cron expression"),
        ({"timezone": "Berlin"}, "Unknown time zone"),
        ({"weekdays": []}, "Choose at least one day of the week."),
        ({"frequency": "hourly"}, "Select a valid choice"),
        ({"time_of_day": "25:00"}, "Enter a valid time."),
    ],
)
def test_a_bad_schedule_is_refused_with_its_reason_where_the_field_is(
    team: Team, login: Callable[[User], Client], change: dict[str, object], error: str
) -> None:
    investigation = _investigation(team)
    answer = login(team.author.user).post(_url(team, investigation, "schedule_save"), {**WEEKLY, **change}, headers=HX)
    assert answer.status_code == 422
    assert error in answer.content.decode()
    assert not Schedule.objects.exists()
    plain = login(team.author.user).post(_url(team, investigation, "schedule_save"), {**WEEKLY, **change})
    assert plain.status_code == 422
    assert error in plain.content.decode()


def test_viewers_and_strangers_cannot_manage_it(team: Team, login: Callable[[User], Client]) -> None:
    investigation = _investigation(team)
    for name in ("schedule_save", "schedule_pause", "schedule_delete", "schedule_test_email"):
        assert login(team.viewer.user).post(_url(team, investigation, name), WEEKLY).status_code == 403, name
        assert login(team.outsider.user).post(_url(team, investigation, name), WEEKLY).status_code == 404, name
    Investigation.objects.filter(pk=investigation.pk).update(visibility=Visibility.PRIVATE)
    assert login(team.editor.user).get(_url(team, investigation)).status_code == 404


def test_pause_resume_remove_and_the_test_e_mail(team: Team, login: Callable[[User], Client]) -> None:
    investigation = _investigation(team)
    author = login(team.author.user)
    author.post(_url(team, investigation, "schedule_save"), WEEKLY, headers=HX)
    paused = author.post(_url(team, investigation, "schedule_pause"), {"paused": "1"}, headers=HX).content.decode()
    assert "Paused." in paused
    assert ">Resume<" in paused
    assert Schedule.objects.get().next_run_at is None
    author.post(_url(team, investigation, "schedule_pause"), {"paused": "0"}, headers=HX)
    assert Schedule.objects.get().next_run_at is not None
    no_address = author.post(_url(team, investigation, "schedule_test_email"), headers=HX)
    assert no_address.status_code == 422
    assert "no e-mail address" in no_address.content.decode()
    User.objects.filter(pk=team.author.user_id).update(email="ada@example.com")
    sent = author.post(_url(team, investigation, "schedule_test_email"), headers=HX)
    assert sent.status_code == 200
    assert "A test e-mail went to ada@example.com" in sent.content.decode()
    assert [m.to for m in mail.outbox] == [["ada@example.com"]]
    assert mail.outbox[0].subject.startswith("[Test] Halvorix watch: first scheduled run")
    assert "Halvorix opened a Berlin office." in mail.outbox[0].body
    removed = author.post(_url(team, investigation, "schedule_delete"), headers=HX).content.decode()
    assert "Schedule removed" in removed
    assert not Schedule.objects.exists()


def test_each_reader_turns_its_e_mails_off_and_on(team: Team, login: Callable[[User], Client]) -> None:
    investigation = _investigation(team)
    login(team.author.user).post(_url(team, investigation, "schedule_save"), WEEKLY, headers=HX)
    viewer = login(team.viewer.user)
    off = viewer.post(_url(team, investigation, "schedule_mute"), {"muted": "1"}, headers=HX).content.decode()
    assert "You do not get its e-mails." in off
    assert list(Schedule.objects.get().mutes.values_list("user_id", flat=True)) == [team.viewer.user_id]
    viewer.post(_url(team, investigation, "schedule_mute"), {"muted": "0"}, headers=HX)
    assert not Schedule.objects.get().mutes.exists()
