"""The Schedule card's "Run now": the schedule's run started at once, the way a due time starts it (the same
rights, the same run limits, a run still going refuses), with a link to it; viewers may not."""

from __future__ import annotations

from collections.abc import Callable

import lxml.html
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from research.investigations import services as investigations
from research.models import Investigation, Run, RunStatus, Schedule, ScheduleFire
from research.runs import services as runs
from research.schedules import firing
from tests.research.investigations.conftest import Team, finished_run
from tests.research.schedules.test_views import WEEKLY

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _scheduled(team: Team, client: Client) -> Investigation:
    run = finished_run(team, claims=["Halvorix opened a Berlin office."])
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    assert client.post(_url(team, investigation, "schedule_save"), WEEKLY, headers=HX).status_code == 200
    return investigation


def _url(team: Team, investigation: Investigation, name: str) -> str:
    return reverse(name, kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk})


def test_an_editor_starts_the_scheduled_run_now_and_gets_a_link_to_it(
    team: Team, login: Callable[[User], Client]
) -> None:
    author = login(team.author.user)
    investigation = _scheduled(team, author)
    card = author.get(_url(team, investigation, "investigation_page")).content.decode()
    assert ">Run now</button>" in card
    next_run = Schedule.objects.get().next_run_at
    answer = author.post(_url(team, investigation, "schedule_run_now"), headers=HX)
    assert answer.status_code == 200
    run = Run.objects.filter(investigation=investigation).latest("created_at")
    assert (run.schedule, run.created_by, run.status) == (Schedule.objects.get(), team.author.user, RunStatus.QUEUED)
    assert Run.objects.filter(investigation=investigation).count() == 2  # the finished one and this one
    page = reverse("run_page", kwargs={"slug": team.workspace.slug, "run_id": run.pk})
    links = lxml.html.fromstring(answer.content).xpath('//p[@role="status"]//a/@href')
    assert links == [page]
    assert Schedule.objects.get().next_run_at == next_run  # its due times do not move
    assert ScheduleFire.objects.get().run == run
    again = author.post(_url(team, investigation, "schedule_run_now"), headers=HX)  # a double-click
    assert again.status_code == 409
    assert f"run {run.pk}" in again.content.decode()
    assert "still queued" in again.content.decode()
    assert Run.objects.filter(investigation=investigation).count() == 2
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED)
    plain = author.post(_url(team, investigation, "schedule_run_now"))  # without JavaScript: to the run's page
    started = Run.objects.filter(investigation=investigation).latest("created_at")
    assert plain.status_code == 302
    assert plain["Location"] == reverse("run_page", kwargs={"slug": team.workspace.slug, "run_id": started.pk})


def test_viewers_cannot_and_strangers_do_not_see_it(team: Team, login: Callable[[User], Client]) -> None:
    investigation = _scheduled(team, login(team.author.user))
    viewer = login(team.viewer.user)
    assert ">Run now</button>" not in viewer.get(_url(team, investigation, "investigation_page")).content.decode()
    assert viewer.post(_url(team, investigation, "schedule_run_now"), headers=HX).status_code == 403
    assert login(team.outsider.user).post(_url(team, investigation, "schedule_run_now")).status_code == 404
    assert Run.objects.filter(investigation=investigation).count() == 1


def test_the_run_limits_refuse_it_with_their_message(team: Team, login: Callable[[User], Client], settings) -> None:  # type: ignore[no-untyped-def]
    author = login(team.author.user)
    investigation = _scheduled(team, author)
    settings.RUNS_ACTIVE_PER_USER = 1
    runs.run_start(actor=team.author, question="Anything else?", corpora=[team.corpus])
    answer = author.post(_url(team, investigation, "schedule_run_now"), headers=HX)
    assert answer.status_code == 429
    assert answer.has_header("Retry-After")
    assert "RUNS_ACTIVE_PER_USER" in answer.content.decode()
    assert Run.objects.filter(investigation=investigation).count() == 1


def test_of_two_presses_read_at_once_only_the_first_starts_a_run(team: Team, login: Callable[[User], Client]) -> None:
    """Both presses read the schedule before either claimed it (two web processes): the second's conditional UPDATE
    finds the schedule fired already and starts nothing, even once the first run has ended."""
    investigation = _scheduled(team, login(team.author.user))
    first, second = Schedule.objects.get(), Schedule.objects.get()  # the same moment's view, twice
    run = firing.schedule_run_now(actor=team.author, schedule=first)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED)  # not refused as "still going"
    with pytest.raises(firing.RunStillGoing, match="started at this moment already"):
        firing.schedule_run_now(actor=team.author, schedule=second)
    assert Run.objects.filter(investigation=investigation).count() == 2
    assert ScheduleFire.objects.count() == 1
