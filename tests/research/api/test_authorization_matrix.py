"""Every operation of the OpenAPI document, asked with a token that must not reach the workspace's data:
another workspace's (404: nothing leaks; its own list shows none of this workspace's runs), a revoked, an expired
one, one whose user was deactivated or left the workspace (401), one without the operation's scope (403). None of
them ever gets a 2xx on this workspace. The operations are read from the document, so a new one is covered when
it is added."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import time, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from research.api.tokens import token_create, token_revoke
from research.investigations.services import investigation_create
from research.models import ApiScope, ApiToken, Investigation, Membership, Run, RunStatus, Schedule, ShareLink
from research.runs import services as runs
from research.schedules.services import schedule_save
from research.sharing.services import share_link_create
from tests.research.api.conftest import Team

pytestmark = pytest.mark.django_db

# The scope each operation needs (path, method): a token holding every other scope is refused with 403.
SCOPES = {
    ("/api/v1/workspaces/{slug}/corpora", "get"): ApiScope.CORPORA_READ,
    ("/api/v1/workspaces/{slug}/corpora", "post"): ApiScope.CORPORA_WRITE,
    ("/api/v1/workspaces/{slug}/corpora/{corpus}", "get"): ApiScope.CORPORA_READ,
    ("/api/v1/workspaces/{slug}/corpora/{corpus}/files", "post"): ApiScope.CORPORA_WRITE,
    ("/api/v1/workspaces/{slug}/runs", "post"): ApiScope.RUNS_WRITE,
    ("/api/v1/runs", "get"): ApiScope.RUNS_READ,
    ("/api/v1/runs/{run_id}", "get"): ApiScope.RUNS_READ,
    ("/api/v1/runs/{run_id}/cancel", "post"): ApiScope.RUNS_WRITE,
    ("/api/v1/runs/{run_id}/report", "get"): ApiScope.REPORTS_READ,
    ("/api/v1/runs/{run_id}/report/{fmt}", "get"): ApiScope.REPORTS_READ,
    ("/api/v1/runs/{run_id}/events", "get"): ApiScope.RUNS_READ,
    ("/api/v1/investigations", "get"): ApiScope.RUNS_READ,
    ("/api/v1/workspaces/{slug}/investigations", "post"): ApiScope.RUNS_WRITE,
    ("/api/v1/investigations/{investigation_id}", "get"): ApiScope.RUNS_READ,
    ("/api/v1/investigations/{investigation_id}", "delete"): ApiScope.RUNS_WRITE,
    ("/api/v1/investigations/{investigation_id}/schedule", "put"): ApiScope.RUNS_WRITE,
    ("/api/v1/investigations/{investigation_id}/schedule", "delete"): ApiScope.RUNS_WRITE,
    ("/api/v1/investigations/{investigation_id}/share-links", "get"): ApiScope.RUNS_READ,
    ("/api/v1/investigations/{investigation_id}/share-links", "post"): ApiScope.RUNS_WRITE,
    ("/api/v1/share-links/{link_id}", "delete"): ApiScope.RUNS_WRITE,
}
BODIES = {
    "/api/v1/workspaces/{slug}/runs": {"question": "Who sponsors Halyard?"},
    "/api/v1/workspaces/{slug}/corpora": {"name": "Another"},
    "/api/v1/workspaces/{slug}/investigations": {"run_id": 0},  # the run is set below
    "/api/v1/investigations/{investigation_id}/schedule": {"frequency": "daily", "time_of_day": "07:00"},
    "/api/v1/investigations/{investigation_id}/share-links": {"run_id": 0},
}


def _operations() -> list[tuple[str, str]]:
    document = Client().get("/api/v1/openapi.json").json()
    return [(path, method) for path, item in document["paths"].items() for method in item]


def test_the_matrix_names_every_operation_of_the_document() -> None:
    assert set(_operations()) == set(SCOPES)


@dataclass(frozen=True)
class Owned:
    """What the workspace holds that the operations name: a run, a finished run saved as an investigation with a
    schedule and a share link."""

    run: Run
    investigation: Investigation
    link: ShareLink


def _owned(team: Team) -> Owned:
    finished = runs.run_start(actor=team.owner, question="Who sponsors Halyard?", corpora=[team.corpus], admit=False)
    Run.objects.filter(pk=finished.pk).update(status=RunStatus.FINISHED)
    finished.refresh_from_db()
    investigation = investigation_create(actor=team.owner, run=finished)
    schedule_save(actor=team.owner, investigation=investigation, frequency="daily", time_of_day=time(7))
    link = share_link_create(actor=team.owner, investigation=investigation, run=finished).link
    run = runs.run_start(actor=team.owner, question="Who sponsors Halyard?", corpora=[team.corpus])
    return Owned(run=run, investigation=investigation, link=link)


def _ask(client: Client, path: str, method: str, team: Team, owned: Owned) -> object:
    url = path.format(
        slug=team.workspace.slug,
        corpus=team.corpus.slug,
        run_id=owned.run.pk,
        investigation_id=owned.investigation.pk,
        link_id=owned.link.pk,
        fmt="md",
    )
    if method == "get":
        return client.get(url)
    if method == "delete":
        return client.delete(url)
    if path.endswith("/files"):
        return client.post(url, {"files": [SimpleUploadedFile("a.txt", b"Globex raised its prices.")]})
    body = {**BODIES.get(path, {})}
    if "run_id" in body:
        body["run_id"] = owned.run.pk if path.endswith("/investigations") else owned.investigation.runs.first().pk
    send = client.put if method == "put" else client.post
    return send(url, json.dumps(body), content_type="application/json")


def _token(member: Membership, *scopes: str) -> tuple[Client, ApiToken]:
    made = token_create(user=member.user, workspace_slug=member.workspace.slug, name="matrix", scopes=scopes)
    return Client(HTTP_AUTHORIZATION=f"Bearer {made.key}"), made.token


@pytest.mark.parametrize(("path", "method"), sorted(SCOPES))
@pytest.mark.parametrize("who", ["other workspace", "revoked", "expired", "deactivated", "removed", "missing scope"])
def test_no_token_that_should_not_reach_the_workspace_gets_a_2xx(team: Team, path: str, method: str, who: str) -> None:
    owned = _owned(team)
    expected = {"other workspace": 404, "missing scope": 403}.get(who, 401)
    if who == "other workspace":
        client, _ = _token(team.outsider)
    elif who == "missing scope":
        client, _ = _token(team.owner, *(scope for scope in ApiScope.values if scope != SCOPES[(path, method)]))
    else:
        editor = Membership.objects.create(
            workspace=team.workspace, user=type(team.owner.user).objects.create_user("ed"), role="editor"
        )
        client, token = _token(editor)
        if who == "revoked":
            token_revoke(token=token)
        elif who == "expired":
            ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        elif who == "deactivated":
            type(editor.user).objects.filter(pk=editor.user.pk).update(is_active=False)
        else:
            editor.delete()
    answer = _ask(client, path, method, team, owned)
    if who == "other workspace" and "{" not in path:  # the token's own workspace's list: none of this one's items
        assert answer.status_code == 200  # type: ignore[attr-defined]
        listed = answer.json()  # type: ignore[attr-defined]
        ids = [item["id"] for item in (listed["runs"] if isinstance(listed, dict) else listed)]
        assert owned.run.pk not in ids
        assert owned.investigation.pk not in ids
        return
    assert answer.status_code == expected, (who, path, method, answer.content)  # type: ignore[attr-defined]
    assert answer["Content-Type"] == "application/problem+json"  # type: ignore[index]
    assert Run.objects.filter(workspace=team.workspace).count() == 2  # nothing was started
    assert Investigation.objects.filter(workspace=team.workspace).count() == 1  # nothing saved or deleted
    assert Schedule.objects.filter(investigation=owned.investigation).exists()  # nor removed
    assert ShareLink.objects.filter(revoked_at__isnull=True).count() == 1  # nor revoked
    assert ShareLink.objects.count() == 1  # nor made
