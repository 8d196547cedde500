"""Investigations, their schedules and share links over the API: what the pages allow, with the same rules (roles,
finished runs only, a schedule's webhook checked like a run's), answered as problems otherwise."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from research.investigations.services import investigation_rerun
from research.models import Investigation, Run, RunStatus, Schedule, ShareLink, WebhookDelivery
from research.runs.execution import run_execute
from research.webhooks import services as webhooks
from tests.research.api.conftest import Team, bearer

pytestmark = pytest.mark.django_db
SECRET = "a-long-enough-webhook-secret"


def _finished_run(client: Client, team: Team) -> int:
    answer = client.post(
        f"/api/v1/workspaces/{team.workspace.slug}/runs",
        json.dumps({"question": "Who sponsors Project Halyard?", "rollouts": 1}),
        content_type="application/json",
    )
    run_id: int = answer.json()["id"]  # type: ignore[attr-defined]
    run_execute(run_id=run_id)
    assert Run.objects.get(pk=run_id).status == RunStatus.FINISHED
    return run_id


def _save(client: Client, team: Team, run_id: int, title: str = "Halyard watch") -> dict[str, object]:
    answer = client.post(
        f"/api/v1/workspaces/{team.workspace.slug}/investigations",
        json.dumps({"run_id": run_id, "title": title}),
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content  # type: ignore[attr-defined]
    return answer.json()  # type: ignore[no-any-return, attr-defined]


@pytest.mark.django_db(transaction=True)
def test_a_run_saved_as_an_investigation_is_listed_read_and_deleted(team: Team) -> None:
    owner = bearer(team.owner)
    run_id = _finished_run(owner, team)
    saved = _save(owner, team, run_id)
    assert (saved["title"], saved["scheduled"], saved["schedule"]) == ("Halyard watch", False, None)
    assert [run["id"] for run in saved["runs"]] == [run_id]  # type: ignore[attr-defined]
    viewer = bearer(team.viewer)
    assert [item["id"] for item in viewer.get("/api/v1/investigations").json()] == [saved["id"]]  # type: ignore[attr-defined]
    assert viewer.get(f"/api/v1/investigations/{saved['id']}").status_code == 200
    refused = viewer.delete(f"/api/v1/investigations/{saved['id']}")
    assert refused.status_code == 403  # a viewer reads, never deletes
    again = owner.post(
        f"/api/v1/workspaces/{team.workspace.slug}/investigations",
        json.dumps({"run_id": run_id}),
        content_type="application/json",
    )
    assert again.status_code == 422  # a run belongs to one investigation at most
    assert "already belongs" in again.json()["detail"]  # type: ignore[attr-defined]
    assert owner.delete(f"/api/v1/investigations/{saved['id']}").status_code == 204
    assert not Investigation.objects.exists()
    assert owner.get(f"/api/v1/investigations/{saved['id']}").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_an_investigation_with_a_run_going_is_not_deleted(team: Team) -> None:
    owner = bearer(team.owner)
    saved = _save(owner, team, _finished_run(owner, team))
    investigation_rerun(actor=team.owner, investigation=Investigation.objects.get(pk=saved["id"]))  # queued
    answer = owner.delete(f"/api/v1/investigations/{saved['id']}")
    assert answer.status_code == 409
    assert "still going" in answer.json()["detail"]  # type: ignore[attr-defined]
    assert Investigation.objects.filter(pk=saved["id"]).exists()


@pytest.mark.django_db(transaction=True)
def test_a_schedule_is_set_with_its_webhook_which_each_of_its_runs_announces(  # type: ignore[no-untyped-def]
    team: Team, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webhooks, "task_send", lambda *args, **options: None)
    owner = bearer(team.owner)
    saved = _save(owner, team, _finished_run(owner, team))
    url = f"/api/v1/investigations/{saved['id']}/schedule"
    body = {"frequency": "weekly", "time_of_day": "07:30", "weekdays": [0, 3], "timezone": "Europe/Paris"}
    private = owner.put(
        url,
        json.dumps({**body, "webhook_url": "http://10.0.0.7/hook", "webhook_secret": SECRET}),
        content_type="application/json",
    )
    assert private.status_code == 422
    assert "private" in json.dumps(private.json()["errors"]["webhook_url"])  # type: ignore[attr-defined]
    assert not Schedule.objects.exists()  # nothing saved
    for wrong, field in (({"time_of_day": "7h30"}, "time_of_day"), ({"timezone": "Mars/Olympus"}, "timezone")):
        refused = owner.put(url, json.dumps({**body, **wrong}), content_type="application/json")
        assert refused.status_code == 422, refused.content
        assert field in refused.json()["errors"]  # type: ignore[attr-defined]
    settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1:9"]
    hook = {"webhook_url": "http://127.0.0.1:9/scheduled", "webhook_secret": SECRET}
    answer = owner.put(url, json.dumps({**body, **hook}), content_type="application/json")
    assert answer.status_code == 200, answer.content
    shown = answer.json()  # type: ignore[attr-defined]
    assert (shown["frequency"], shown["time_of_day"], shown["weekdays"]) == ("weekly", "07:30", [0, 3])
    assert shown["next_run_at"] is not None
    assert shown["webhook_url"] == hook["webhook_url"]
    assert SECRET not in answer.content.decode()
    assert owner.get(f"/api/v1/investigations/{saved['id']}").json()["scheduled"] is True  # type: ignore[attr-defined]

    schedule = Schedule.objects.get()
    run = investigation_rerun(actor=team.owner, investigation=schedule.investigation, schedule=schedule)
    webhooks.delivery_on_end(run_id=run.pk, status=RunStatus.FINISHED)
    assert WebhookDelivery.objects.get().url == hook["webhook_url"]  # the schedule's, for its run

    assert owner.delete(url).status_code == 204
    assert owner.delete(url).status_code == 404
    assert not Schedule.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_share_link_is_made_shown_once_listed_and_revoked(team: Team) -> None:
    owner = bearer(team.owner)
    run_id = _finished_run(owner, team)
    saved = _save(owner, team, run_id)
    links = f"/api/v1/investigations/{saved['id']}/share-links"
    made = owner.post(links, json.dumps({"run_id": run_id, "label": "for the board"}), content_type="application/json")
    assert made.status_code == 201, made.content
    link = made.json()  # type: ignore[attr-defined]
    assert "/s/" in link["url"]
    path = "/s/" + link["url"].split("/s/", 1)[1]
    assert Client().get(path).status_code == 200  # anyone holding it reads the run
    listed = owner.get(links).json()  # type: ignore[attr-defined]
    assert [item["label"] for item in listed] == ["for the board"]
    assert "url" not in listed[0]  # shown once, never stored
    assert bearer(team.viewer).get(links).status_code == 403  # only its author or an owner sees its links
    assert owner.delete(f"/api/v1/share-links/{link['id']}").status_code == 204
    assert ShareLink.objects.get().revoked_at is not None
    assert Client().get(path).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_only_a_finished_run_of_the_investigation_is_shared(team: Team) -> None:
    owner = bearer(team.owner)
    saved = _save(owner, team, _finished_run(owner, team))
    queued = investigation_rerun(actor=team.owner, investigation=Investigation.objects.get(pk=saved["id"]))
    answer = owner.post(
        f"/api/v1/investigations/{saved['id']}/share-links",
        json.dumps({"run_id": queued.pk}),
        content_type="application/json",
    )
    assert answer.status_code == 422
    assert "finished" in json.dumps(answer.json()["errors"])  # type: ignore[attr-defined]


@pytest.mark.django_db(transaction=True)
def test_a_share_link_needs_reports_read_and_an_expiry_with_its_time_zone(team: Team) -> None:
    owner = bearer(team.owner)
    run_id = _finished_run(owner, team)
    saved = _save(owner, team, run_id)
    links = f"/api/v1/investigations/{saved['id']}/share-links"
    writer = bearer(team.owner, "runs:write", "runs:read")  # may start runs, may not read reports
    refused = writer.post(links, json.dumps({"run_id": run_id}), content_type="application/json")
    assert refused.status_code == 403  # a link would show it the report
    assert writer.get(links).status_code == 403
    naive = owner.post(
        links, json.dumps({"run_id": run_id, "expires_at": "2030-01-01T00:00:00"}), content_type="application/json"
    )
    assert naive.status_code == 422  # not a 500: which zone was meant is asked, not guessed
    assert "timezone" in naive.content.decode().lower() or "time zone" in naive.content.decode().lower()
    assert not ShareLink.objects.exists()
