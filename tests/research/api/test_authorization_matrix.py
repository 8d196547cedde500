"""Every operation of the OpenAPI document, asked with a token that must not reach the workspace's data:
another workspace's (404: nothing leaks; its own list shows none of this workspace's runs), a revoked, an expired
one, one whose user was deactivated or left the workspace (401), one without the operation's scope (403). None of
them ever gets a 2xx on this workspace. The operations are read from the document, so a new one is covered when
it is added."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from research.api.tokens import token_create, token_revoke
from research.models import ApiScope, ApiToken, Membership, Run
from research.runs import services as runs
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
    ("/api/v1/runs/{run_id}/events", "get"): ApiScope.RUNS_READ,
}


def _operations() -> list[tuple[str, str]]:
    document = Client().get("/api/v1/openapi.json").json()
    return [(path, method) for path, item in document["paths"].items() for method in item]


def test_the_matrix_names_every_operation_of_the_document() -> None:
    assert set(_operations()) == set(SCOPES)


def _ask(client: Client, path: str, method: str, team: Team, run: Run) -> object:
    url = path.format(slug=team.workspace.slug, corpus=team.corpus.slug, run_id=run.pk)
    if method == "get":
        return client.get(url)
    if path.endswith("/files"):
        return client.post(url, {"files": [SimpleUploadedFile("a.txt", b"Globex raised its prices.")]})
    body = {"question": "Who sponsors Halyard?"} if path.endswith("/runs") else {"name": "Another"}
    return client.post(url, json.dumps(body), content_type="application/json")


def _token(member: Membership, *scopes: str) -> tuple[Client, ApiToken]:
    made = token_create(user=member.user, workspace_slug=member.workspace.slug, name="matrix", scopes=scopes)
    return Client(HTTP_AUTHORIZATION=f"Bearer {made.key}"), made.token


@pytest.mark.parametrize(("path", "method"), sorted(SCOPES))
@pytest.mark.parametrize("who", ["other workspace", "revoked", "expired", "deactivated", "removed", "missing scope"])
def test_no_token_that_should_not_reach_the_workspace_gets_a_2xx(team: Team, path: str, method: str, who: str) -> None:
    run = runs.run_start(actor=team.owner, question="Who sponsors Halyard?", corpora=[team.corpus])
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
    answer = _ask(client, path, method, team, run)
    if who == "other workspace" and "{" not in path:  # the token's own workspace's list: none of this one's runs
        assert answer.status_code == 200  # type: ignore[attr-defined]
        assert run.pk not in [item["id"] for item in answer.json()["runs"]]  # type: ignore[attr-defined]
        return
    assert answer.status_code == expected, (who, path, method, answer.content)  # type: ignore[attr-defined]
    assert answer["Content-Type"] == "application/problem+json"  # type: ignore[index]
    assert Run.objects.filter(workspace=team.workspace).count() == 1  # nothing was started
