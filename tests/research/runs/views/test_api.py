"""Run views: members read, editors start and cancel, non-members get 404; JSON shapes."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse

from research.models import Corpus, Membership, Run, RunStatus
from research.protocol.events import TurnStarted
from research.runs import journal
from research.runs import services as runs

pytestmark = pytest.mark.django_db


def _start(client, workspace, corpus, **fields):  # type: ignore[no-untyped-def]
    data = {
        "question": "What did Globex ship?",
        "corpora": [corpus.pk],
        "template": "question",
        "rollouts": 2,
        "budget": 32768,
        "max_turns": 8,
        **fields,
    }
    return client.post(reverse("run_start", kwargs={"slug": workspace.slug}), data)


def test_an_editor_starts_a_run_and_gets_its_urls(team, login, django_capture_on_commit_callbacks) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = _start(login(ada), workspace, corpus)
    assert response.status_code == 201
    body = response.json()
    run = Run.objects.get(pk=body["id"])
    assert body["status"] == "queued"
    assert body["corpora"] == [{"slug": "market", "name": "Market"}]
    assert body["rollouts"] == 2
    assert body["urls"]["socket"] == f"/ws/runs/{run.pk}/"
    assert body["urls"]["events"] == f"/w/{workspace.slug}/runs/{run.pk}/events/"
    assert len(callbacks) == 1


def test_a_start_that_leaves_out_the_limits_takes_the_forms_defaults(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    data = {"question": "What did Globex ship?", "corpora": [corpus.pk]}
    response = login(ada).post(reverse("run_start", kwargs={"slug": workspace.slug}), data)
    assert response.status_code == 201, response.content
    run = Run.objects.get(pk=response.json()["id"])
    assert (run.template, run.rollouts, run.budget, run.max_turns) == ("question", 4, 32_768, 16)


def test_bad_input_is_answered_field_by_field(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    response = _start(login(ada), workspace, corpus, rollouts=9, question="")
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"rollouts", "question"}
    assert not Run.objects.exists()


def test_a_corpus_of_another_workspace_is_not_a_choice(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, _, ada, _, eve = team
    theirs = Corpus.objects.create(workspace=Membership.objects.get(user=eve).workspace, name="T", slug="t")
    response = _start(login(ada), workspace, theirs)
    assert response.status_code == 422
    assert "corpora" in response.json()["errors"]


def test_a_viewer_reads_but_cannot_start_or_cancel(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, vic, _ = team
    run = runs.run_start(actor=Membership.objects.get(user=ada), question="q", corpora=[corpus])
    viewer = login(vic)
    assert _start(viewer, workspace, corpus).status_code == 403
    cancel = reverse("run_cancel", kwargs={"slug": workspace.slug, "run_id": run.pk})
    assert viewer.post(cancel).status_code == 403
    assert viewer.get(reverse("run_list_json", kwargs={"slug": workspace.slug})).status_code == 200
    assert viewer.get(reverse("run_detail_json", kwargs={"slug": workspace.slug, "run_id": run.pk})).status_code == 200


def test_a_non_member_gets_404_everywhere(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, eve = team
    run = runs.run_start(actor=Membership.objects.get(user=ada), question="q", corpora=[corpus])
    stranger = login(eve)
    slug, ids = workspace.slug, {"slug": workspace.slug, "run_id": run.pk}
    assert stranger.get(reverse("run_list_json", kwargs={"slug": slug})).status_code == 404
    assert stranger.get(reverse("run_estimate", kwargs={"slug": slug})).status_code == 404
    assert stranger.get(reverse("run_detail_json", kwargs=ids)).status_code == 404
    assert stranger.get(reverse("run_events", kwargs=ids)).status_code == 404
    assert stranger.post(reverse("run_cancel", kwargs=ids)).status_code == 404
    assert _start(stranger, workspace, corpus).status_code == 404
    assert Run.objects.get(pk=run.pk).status == RunStatus.QUEUED


def test_a_run_of_another_workspace_is_404_even_for_a_member_elsewhere(team, login) -> None:  # type: ignore[no-untyped-def]
    _, corpus, ada, _, eve = team
    run = runs.run_start(actor=Membership.objects.get(user=ada), question="q", corpora=[corpus])
    eves = Membership.objects.get(user=eve).workspace
    response = login(eve).get(reverse("run_detail_json", kwargs={"slug": eves.slug, "run_id": run.pk}))
    assert response.status_code == 404


def test_list_detail_and_events_since_a_seq(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    run = runs.run_start(actor=Membership.objects.get(user=ada), question="q", corpora=[corpus])
    turns = [TurnStarted(rollout=0, turn=n) for n in range(1, 6)]
    journal.events_store(run_id=run.pk, events=turns, attempt=1, guard=Q())
    client = login(ada)
    listed = client.get(reverse("run_list_json", kwargs={"slug": workspace.slug})).json()["runs"]
    assert [item["id"] for item in listed] == [run.pk]
    ids = {"slug": workspace.slug, "run_id": run.pk}
    detail = client.get(reverse("run_detail_json", kwargs=ids)).json()
    assert detail["last_seq"] == 5
    assert detail["result"] == []
    events = client.get(reverse("run_events", kwargs=ids), {"after": 3}).json()
    assert [e["seq"] for e in events["events"]] == [4, 5]
    assert events["events"][0]["payload"] == {"type": "turn_started", "rollout": 0, "turn": 4}
    assert events["last_seq"] == 5
    assert events["more"] is False
    assert client.get(reverse("run_events", kwargs=ids), {"after": "x"}).status_code == 422


def test_the_estimate_scales_with_rollouts(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, _, ada, _, _ = team
    client, url = login(ada), reverse("run_estimate", kwargs={"slug": workspace.slug})
    one = client.get(url, {"rollouts": 1, "budget": 32768, "max_turns": 16}).json()
    four = client.get(url, {"rollouts": 4, "budget": 32768, "max_turns": 16}).json()
    assert four["model_calls"] == 4 * one["model_calls"]
    assert four["tokens"] == 4 * one["tokens"]
    assert set(one) == {"model_calls", "tokens", "max_model_calls", "max_tokens"}
    assert client.get(url, {"rollouts": 12}).status_code == 422


def test_cancel_by_an_editor_and_a_second_time_once_it_ended(team, login) -> None:  # type: ignore[no-untyped-def]
    workspace, corpus, ada, _, _ = team
    run = runs.run_start(actor=Membership.objects.get(user=ada), question="q", corpora=[corpus])
    client, url = login(ada), reverse("run_cancel", kwargs={"slug": workspace.slug, "run_id": run.pk})
    response = client.post(url, {"reason": "not needed"})
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    assert response.json()["status_reason"] == "not needed"
    assert client.post(url).status_code == 409
    assert client.get(url).status_code == 405


def test_json_clients_get_json_401_403_and_404(team, client, login) -> None:  # type: ignore[no-untyped-def]
    """Issue 11 (8): a logged-out client got a 302 to the HTML login page, an unknown run an HTML 404."""
    workspace, corpus, ada, vic, _ = team
    run = runs.run_start(actor=Membership.objects.get(user=ada), question="q", corpora=[corpus])
    slug, ids = workspace.slug, {"slug": workspace.slug, "run_id": run.pk}
    urls = [
        ("get", reverse("run_list_json", kwargs={"slug": slug})),
        ("get", reverse("run_estimate", kwargs={"slug": slug})),
        ("get", reverse("run_detail_json", kwargs=ids)),
        ("get", reverse("run_events", kwargs=ids)),
        ("post", reverse("run_start", kwargs={"slug": slug})),
        ("post", reverse("run_cancel", kwargs=ids)),
    ]
    for method, url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 401, url
        assert response["Content-Type"] == "application/json", url
        assert "error" in response.json(), url
    member = login(ada)
    unknown = {"slug": slug, "run_id": run.pk + 1000}
    for url in (reverse("run_detail_json", kwargs=unknown), reverse("run_events", kwargs=unknown)):
        response = member.get(url)
        assert (response.status_code, response["Content-Type"]) == (404, "application/json"), url
        assert response.json() == {"error": "Not found."}
    missing = member.get(reverse("run_list_json", kwargs={"slug": "no-such-workspace"}))
    assert (missing.status_code, missing.json()) == (404, {"error": "Not found."})
    refused = login(vic).post(reverse("run_cancel", kwargs=ids))
    assert (refused.status_code, refused["Content-Type"]) == (403, "application/json")
    assert refused.json()["error"]
    assert Run.objects.get(pk=run.pk).status == RunStatus.QUEUED
