"""The public API over HTTP (Django's test client): tokens, problems, runs with idempotency, the event stream,
corpora and uploads, the limits, the OpenAPI document and its docs page."""

from __future__ import annotations

import asyncio
import io
import json
import random
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from research.api.keys import key_new, key_well_formed
from research.api.tokens import token_create, token_revoke
from research.models import ApiToken, Membership, Run, RunStatus
from research.runs.execution import run_execute
from tests.research.api.conftest import Team, bearer

pytestmark = pytest.mark.django_db
QUESTION = {"question": "Who sponsors Project Halyard?"}


def _start(client: Client, team: Team, body: dict[str, object] | None = None, **headers: str) -> object:
    url = f"/api/v1/workspaces/{team.workspace.slug}/runs"
    return client.post(url, json.dumps(body or QUESTION), content_type="application/json", **headers)


def _problem(answer: object, status: int, kind: str) -> dict[str, object]:
    assert answer.status_code == status, answer.content  # type: ignore[attr-defined]
    assert answer["Content-Type"] == "application/problem+json"  # type: ignore[index]
    body = answer.json()  # type: ignore[attr-defined]
    assert body["type"] == f"/api/v1/problems/{kind}"
    assert body["status"] == status
    return body  # type: ignore[no-any-return]


# --- tokens -----------------------------------------------------------------------------------------------


def test_a_token_is_shown_once_stored_as_a_digest_and_recognisable(team: Team) -> None:
    made = token_create(user=team.owner.user, workspace_slug=team.workspace.slug, name="nightly enrichment")
    assert made.key.startswith("c1w_")
    assert key_well_formed(made.key)
    assert not key_well_formed(made.key[:-1] + ("A" if made.key[-1] != "A" else "B"))  # the checksum catches a typo
    stored = ApiToken.objects.get(pk=made.token.pk)
    assert made.key not in {stored.token_sha256, stored.hint}
    assert stored.hint == made.key[:8] + "…"
    assert stored.expires_at is not None


@pytest.mark.parametrize("case", ["none", "malformed", "unknown", "revoked", "expired", "left", "inactive"])
def test_a_request_without_a_working_token_is_a_401_problem(team: Team, case: str) -> None:
    made = token_create(user=team.viewer.user, workspace_slug=team.workspace.slug, name="t")
    header = {"HTTP_AUTHORIZATION": f"Bearer {made.key}"}
    if case == "none":
        header = {}
    elif case == "malformed":
        header = {"HTTP_AUTHORIZATION": "Bearer not-a-token"}
    elif case == "unknown":  # well formed, never issued
        header = {"HTTP_AUTHORIZATION": f"Bearer {key_new()}"}
    elif case == "revoked":
        token_revoke(token=made.token)
    elif case == "expired":
        ApiToken.objects.filter(pk=made.token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    elif case == "left":  # removed from the workspace: the token stops at once
        Membership.objects.filter(pk=team.viewer.pk).delete()
    else:
        type(team.viewer.user).objects.filter(pk=team.viewer.user.pk).update(is_active=False)
    answer = Client(**header).get("/api/v1/runs")
    _problem(answer, 401, "unauthenticated")
    assert answer["WWW-Authenticate"].startswith("Bearer")


def test_anything_outside_the_tokens_workspace_is_a_404_never_a_403(team: Team) -> None:
    theirs = bearer(team.outsider)
    mine = Run.objects.get(pk=_start(bearer(team.owner), team).json()["id"])  # type: ignore[attr-defined]
    _problem(theirs.get(f"/api/v1/runs/{mine.pk}"), 404, "not-found")
    _problem(theirs.post(f"/api/v1/runs/{mine.pk}/cancel"), 404, "not-found")
    _problem(_start(theirs, team), 404, "not-found")
    _problem(theirs.get(f"/api/v1/workspaces/{team.workspace.slug}/corpora"), 404, "not-found")
    assert mine.pk not in [run["id"] for run in theirs.get("/api/v1/runs").json()["runs"]]


def test_a_missing_scope_or_role_is_a_403(team: Team) -> None:
    reader = bearer(team.owner, "runs:read")
    body = _problem(_start(reader, team), 403, "missing-scope")
    assert "runs:write" in str(body["detail"])
    _problem(_start(bearer(team.viewer), team), 403, "missing-scope")  # no scopes: a viewer's rights, never more
    assert reader.get("/api/v1/runs").status_code == 200


# --- runs -------------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the run is executed here: its journal writes from its own thread
def test_a_run_started_over_the_api_is_read_with_its_answer_sources_and_usage(team: Team) -> None:
    client = bearer(team.owner)
    started = _start(client, team, {**QUESTION, "max_steps": 6, "context_window": 16384, "rollouts": 2})
    assert started.status_code == 202  # type: ignore[attr-defined]
    run = Run.objects.get(pk=started.json()["id"])  # type: ignore[attr-defined]
    assert (run.max_turns, run.budget, run.rollouts) == (6, 16384, 2)
    assert started.json()["corpora"] == ["market"]  # type: ignore[attr-defined]
    assert run_execute(run_id=run.pk) == "finished"
    detail = client.get(f"/api/v1/runs/{run.pk}").json()
    assert detail["status"] == "finished"
    assert detail["usage"]["turns"] >= 1
    assert detail["num_queries"] >= 1
    assert detail["usage"]["tool_calls"] >= detail["num_queries"]
    assert detail["answer"] is not None
    report = client.get(f"/api/v1/runs/{run.pk}/report")
    assert report.status_code == 200
    assert report.json()["question"] == QUESTION["question"]
    _problem(client.post(f"/api/v1/runs/{run.pk}/cancel"), 409, "conflict")


def test_a_retried_start_with_its_idempotency_key_returns_the_same_run(team: Team) -> None:
    client = bearer(team.owner)
    first = _start(client, team, HTTP_IDEMPOTENCY_KEY="nightly-2026-12-06")
    again = _start(client, team, HTTP_IDEMPOTENCY_KEY="nightly-2026-12-06")
    assert (first.status_code, again.status_code) == (202, 200)  # type: ignore[attr-defined]
    assert first.json()["id"] == again.json()["id"]  # type: ignore[attr-defined]
    assert Run.objects.filter(workspace=team.workspace).count() == 1
    other = _start(client, team, {"question": "Something else?"}, HTTP_IDEMPOTENCY_KEY="nightly-2026-12-06")
    _problem(other, 409, "conflict")
    assert _start(client, team).json()["id"] != first.json()["id"]  # type: ignore[attr-defined]


def test_a_bad_body_is_a_problem_by_field(team: Team) -> None:
    client = bearer(team.owner)
    body = _problem(_start(client, team, {"question": "", "rollouts": 99}), 422, "invalid")
    assert "errors" in body
    body = _problem(_start(client, team, {**QUESTION, "corpora": ["nope"]}), 422, "invalid")
    assert "market" in str(body["detail"])
    garbled = client.post(f"/api/v1/workspaces/{team.workspace.slug}/runs", "{", content_type="application/json")
    _problem(garbled, 400, "malformed")


@pytest.mark.django_db(transaction=True)
def test_the_event_stream_resumes_after_any_event_without_gap_or_repeat(team: Team) -> None:
    client = bearer(team.owner)
    run = Run.objects.get(pk=_start(client, team).json()["id"])  # type: ignore[attr-defined]
    run_execute(run_id=run.pk)
    run.refresh_from_db()

    def ids(answer: object) -> list[int]:
        async def read() -> str:
            return "".join([part.decode() async for part in answer.streaming_content])  # type: ignore[attr-defined]

        text = async_to_sync(read)()
        return [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]

    whole = client.get(f"/api/v1/runs/{run.pk}/events")
    assert whole["Content-Type"] == "text/event-stream"
    assert ids(whole) == list(range(1, run.last_seq + 1))
    for point in random.Random(run.last_seq).sample(range(1, run.last_seq), 3):  # resumed at random points
        assert ids(client.get(f"/api/v1/runs/{run.pk}/events", HTTP_LAST_EVENT_ID=str(point))) == list(
            range(point + 1, run.last_seq + 1)
        )
        assert ids(client.get(f"/api/v1/runs/{run.pk}/events?starting_after={point}")) == list(
            range(point + 1, run.last_seq + 1)
        )
    assert ids(client.get(f"/api/v1/runs/{run.pk}/events?starting_after={run.last_seq}")) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", ["revoked", "left"])
def test_an_open_event_stream_stops_once_its_token_stops_working(team: Team, case: str, settings) -> None:  # type: ignore[no-untyped-def]
    made = token_create(user=team.owner.user, workspace_slug=team.workspace.slug, name="watcher")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {made.key}")
    run_id = _start(client, team).json()["id"]  # type: ignore[attr-defined]  # queued: no worker takes it here
    answer = client.get(f"/api/v1/runs/{run_id}/events")

    async def read() -> str:
        parts = []
        async for part in answer.streaming_content:  # type: ignore[attr-defined]
            parts.append(part.decode())
            if len(parts) == 1:  # the retry field: the stream is open (a queued run has no event yet)
                if case == "revoked":
                    await sync_to_async(token_revoke)(token=made.token)
                else:
                    await sync_to_async(Membership.objects.filter(pk=team.owner.pk).delete)()
        return "".join(parts)

    text = async_to_sync(asyncio.wait_for)(read(), timeout=30)  # ends within a tail check, without the end frame
    assert text.startswith("retry: ")
    assert "event: end" not in text
    _problem(client.get(f"/api/v1/runs/{run_id}/events"), 401, "unauthenticated")


# --- limits -----------------------------------------------------------------------------------------------


def test_a_token_past_its_requests_a_minute_gets_a_429_with_retry_after(team: Team, settings) -> None:  # type: ignore[no-untyped-def]
    settings.API_REQUESTS_PER_MINUTE = 3
    client = bearer(team.owner)
    assert [client.get("/api/v1/runs").status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get("/api/v1/runs")
    body = _problem(refused, 429, "rate-limited")
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert body["retry_after"] == int(refused["Retry-After"])
    assert bearer(team.owner).get("/api/v1/runs").status_code == 200  # counted per token


def test_a_member_at_their_run_limit_gets_a_429_problem(team: Team, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RUNS_ACTIVE_PER_USER = 1
    client = bearer(team.owner)
    assert _start(client, team).status_code == 202  # type: ignore[attr-defined]
    refused = _start(client, team, {"question": "Another?"})
    _problem(refused, 429, "rate-limited")
    assert int(refused["Retry-After"]) >= 10  # type: ignore[index]
    Run.objects.filter(workspace=team.workspace).update(status=RunStatus.FINISHED)


# --- corpora ----------------------------------------------------------------------------------------------


def test_corpora_are_created_uploaded_to_and_read(team: Team) -> None:
    client = bearer(team.owner, "corpora:read", "corpora:write")
    base = f"/api/v1/workspaces/{team.workspace.slug}/corpora"
    made = client.post(base, json.dumps({"name": "Battlecards"}), content_type="application/json")
    assert made.status_code == 201
    slug = made.json()["slug"]
    from django.core.files.uploadedfile import SimpleUploadedFile

    files = [SimpleUploadedFile("globex.txt", b"Globex raised its prices."), SimpleUploadedFile("empty.txt", b"")]
    uploaded = client.post(f"{base}/{slug}/files", {"files": files})
    assert uploaded.status_code == 202
    stages = {item["name"]: (item["stage"], item["error"]) for item in uploaded.json()["files"]}
    assert stages["globex.txt"] == ("queued", "")
    assert stages["empty.txt"][0] == "failed"
    assert {corpus["slug"] for corpus in client.get(base).json()} == {"market", slug}
    assert client.get(f"{base}/{slug}").json()["files"]
    _problem(client.get(f"{base}/nope"), 404, "not-found")


# --- the description --------------------------------------------------------------------------------------


def test_the_openapi_document_and_its_docs_page_load_nothing_from_elsewhere() -> None:
    document = Client().get("/api/v1/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    assert "/api/v1/workspaces/{slug}/runs" in document["paths"]
    assert "/api/v1/runs/{run_id}/events" in document["paths"]
    events = document["paths"]["/api/v1/runs/{run_id}/events"]["get"]["responses"]
    assert list(events["200"]["content"]) == ["text/event-stream"]
    start = document["paths"]["/api/v1/workspaces/{slug}/runs"]["post"]["responses"]
    assert {"202", "401", "403", "404", "409", "422", "429"} <= set(start)
    assert list(start["404"]["content"]) == ["application/problem+json"]
    page = Client().get("/api/v1/docs").content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower()


# --- the account page and the command line ---------------------------------------------------------------


def test_the_account_page_makes_a_token_shows_it_once_and_revokes_it(team: Team) -> None:
    page = Client()
    page.force_login(team.owner.user)
    form = {"name": "CRM plug-in", "workspace": team.workspace.slug, "scopes": ["reports:read"], "days": "30"}
    made = page.post("/accounts/tokens/", form)
    assert made.status_code == 200
    key = made.content.decode().split('id="new-token" class="token">')[1].split("<")[0]
    assert key_well_formed(key)
    assert Client(HTTP_AUTHORIZATION=f"Bearer {key}").get("/api/v1/runs").status_code == 403  # reports:read only
    listed = page.get("/accounts/tokens/").content.decode()
    assert "CRM plug-in" in listed
    assert key not in listed  # shown once
    assert 'hx-confirm="Revoke “CRM plug-in”? Whatever uses it stops working at once."' in listed
    token = ApiToken.objects.get(name="CRM plug-in")
    refused = page.post("/accounts/tokens/", {**form, "workspace": team.outsider.workspace.slug})
    assert refused.status_code == 422  # not a workspace of theirs
    assert Client().get("/accounts/tokens/").status_code == 302
    other = Client()
    other.force_login(team.outsider.user)
    assert other.post(f"/accounts/tokens/{token.pk}/revoke/").status_code == 403
    page.post(f"/accounts/tokens/{token.pk}/revoke/")
    _problem(Client(HTTP_AUTHORIZATION=f"Bearer {key}").get("/api/v1/runs"), 401, "unauthenticated")


def test_the_command_line_prints_a_token_as_json_and_revokes_it(team: Team) -> None:
    out = io.StringIO()
    call_command(
        "api_token",
        "create",
        "--user",
        "olga",
        "--workspace",
        team.workspace.slug,
        "--scope",
        "runs:read",
        "--json",
        stdout=out,
    )
    printed = json.loads(out.getvalue())
    client = Client(HTTP_AUTHORIZATION=f"Bearer {printed['token']}")
    assert client.get("/api/v1/runs").status_code == 200
    call_command("api_token", "revoke", str(printed["id"]), stdout=io.StringIO())
    _problem(client.get("/api/v1/runs"), 401, "unauthenticated")
    with pytest.raises(CommandError, match="not a member"):
        call_command("api_token", "create", "--user", "eve", "--workspace", team.workspace.slug, stdout=io.StringIO())
