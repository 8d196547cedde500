"""Corpus health checks: who may start one, one at a time, the worker's side on a real corpus (MuSiQue's paragraphs
stored as documents, the heuristic agent, hashing vectors), and the page: progress while it runs, the figures, the
reward and the history after; members only."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from research.corpus_health import services
from research.evaluation.datasets import load_corpus
from research.models import Chunk, Corpus, CorpusHealth, Document, Membership
from research.workspaces.services import workspace_create

MUSIQUE = Path(__file__).parents[3] / "research/evaluation/qa_data/musique/musique_train100_corpus.json"


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr(services, "task_send", lambda *args: calls.append(args))
    return calls


@pytest.fixture
def team(make_user, make_workspace):  # type: ignore[no-untyped-def]
    owner, viewer = make_user("owner"), make_user("viewer")
    workspace = make_workspace(owner, "Team", members={viewer: "viewer"})
    corpus = Corpus.objects.create(workspace=workspace, name="Market", slug="market")
    members = {m.user.username: m for m in Membership.objects.filter(workspace=workspace).select_related("user")}
    return members, corpus


def _store(corpus: Corpus, limit: int) -> None:
    docs = load_corpus(MUSIQUE)[:limit]
    documents = Document.objects.bulk_create(
        Document(corpus=corpus, doc_id=doc.doc_id, title=doc.title, source_name=f"{doc.doc_id}.txt", kind="txt")
        for doc in docs
    )
    Chunk.objects.bulk_create(
        Chunk(document=document, index=0, chunk_id=f"{doc.doc_id}#0", text=doc.text)
        for document, doc in zip(documents, docs, strict=True)
    )


@pytest.mark.django_db(transaction=True)
def test_owners_and_editors_start_one_check_at_a_time(team, sent) -> None:  # type: ignore[no-untyped-def]
    members, corpus = team
    with pytest.raises(PermissionDenied):
        services.health_check_start(actor=members["viewer"], corpus=corpus)
    with pytest.raises(ValidationError, match="Choose 10, 20, 50"):
        services.health_check_start(actor=members["owner"], corpus=corpus, count=7)
    check = services.health_check_start(actor=members["owner"], corpus=corpus, count=10)
    assert (check.status, check.backend, sent) == (
        "queued",
        "heuristic",
        [("research.tasks.report_corpus_health", check.pk)],
    )
    with pytest.raises(ValidationError, match="already under way"):
        services.health_check_start(actor=members["owner"], corpus=corpus)
    CorpusHealth.objects.filter(pk=check.pk).update(created_at=timezone.now() - timedelta(hours=5))
    with pytest.raises(ValidationError, match="already under way"):  # queued 5 h ago, never claimed: still waits
        services.health_check_start(actor=members["owner"], corpus=corpus)
    CorpusHealth.objects.filter(pk=check.pk).update(started_at=timezone.now() - timedelta(hours=4))
    again = services.health_check_start(actor=members["owner"], corpus=corpus)  # the stale one failed first
    assert CorpusHealth.objects.get(pk=check.pk).error == "The worker running this check was lost."
    services._update(check, status="finished")  # the lost worker ending late does not undo that
    assert CorpusHealth.objects.get(pk=check.pk).status == "failed"
    other = workspace_create(name="Other", owner=members["viewer"].user)
    outsider = Membership.objects.get(workspace=other)
    with pytest.raises(PermissionDenied):
        services.health_check_start(actor=outsider, corpus=corpus)
    assert again.status == "queued"


@pytest.mark.django_db
def test_a_check_runs_both_systems_on_verified_questions_and_keeps_the_reward(team, sent) -> None:  # type: ignore[no-untyped-def]
    members, corpus = team
    _store(corpus, 600)
    check = services.health_check_start(actor=members["owner"], corpus=corpus, count=10)
    services.health_check_execute(check_id=check.pk)
    check.refresh_from_db()
    assert check.status == "finished", check.error
    assert check.done == check.total == len(check.tasks) >= 1
    assert check.generation["candidates"] >= check.total
    for system in ("agent", "baseline"):
        assert 0.01 <= check.figures[system]["reward"] <= 2.0
        assert set(check.figures[system]["reward_terms"]) >= {"f_beta", "trajectory_recall", "final_answer"}
    task = check.tasks[0]
    assert task["hop_count"] == len(task["documents"]) >= 2
    assert task["documents"][0]["title"]  # titles, not raw ids, for the page
    lines = services.health_tasks_jsonl(check).splitlines()
    assert len(lines) == check.total
    assert json.loads(lines[0])["clues"]  # evaluate's task record, with its clues
    assert len(services.health_corpus_jsonl(corpus).splitlines()) == 600
    services.health_check_execute(check_id=check.pk)  # a redelivered message changes nothing
    assert CorpusHealth.objects.get(pk=check.pk).finished_at == check.finished_at


@pytest.mark.django_db
def test_a_corpus_without_linked_documents_fails_with_the_reason(team, sent) -> None:  # type: ignore[no-untyped-def]
    members, corpus = team
    _store(corpus, 1)
    check = services.health_check_start(actor=members["owner"], corpus=corpus, count=10)
    services.health_check_execute(check_id=check.pk)
    check.refresh_from_db()
    assert (check.status, check.error) == (
        "failed",
        "ValueError: the corpus has 1 document(s); a task links at least 2",
    )


@pytest.mark.django_db
def test_the_page_follows_a_check_and_shows_its_figures_to_members_only(team, sent, login, make_user) -> None:  # type: ignore[no-untyped-def]
    members, corpus = team
    slug = corpus.workspace.slug
    page = reverse("corpus_health", kwargs={"slug": slug, "corpus_slug": corpus.slug})
    viewer, owner = login(members["viewer"].user), login(members["owner"].user)
    body = viewer.get(page).content.decode()
    assert "No check yet" in body
    assert "Run a check" not in body  # viewers read, never start
    assert (
        viewer.post(reverse("corpus_health_start", kwargs={"slug": slug, "corpus_slug": "market"})).status_code == 403
    )
    assert login(make_user("stranger")).get(page).status_code == 404

    started = owner.post(
        reverse("corpus_health_start", kwargs={"slug": slug, "corpus_slug": "market"}), {"count": "10"}
    )
    check = CorpusHealth.objects.get(corpus=corpus)
    assert started.status_code == 302
    assert started["Location"].endswith(f"/health/{check.pk}/")
    status_url = reverse("corpus_health_status", kwargs={"slug": slug, "corpus_slug": "market", "check_id": check.pk})
    polled = owner.get(status_url, HTTP_HX_REQUEST="true")
    assert 'hx-trigger="every 2s"' in polled.content.decode()
    assert "Waiting for a worker" in polled.content.decode()
    refused = owner.post(
        reverse("corpus_health_start", kwargs={"slug": slug, "corpus_slug": "market"}), {"count": "10"}
    )
    assert refused.status_code == 422
    assert "already under way" in refused.content.decode()

    documents = [{"doc_id": "a", "title": "Brightwater"}, {"doc_id": "b", "title": "Bergen"}]
    task = {"question": "Which X?", "answer": "1962", "hop_count": 2, "documents": documents}
    task |= {"agent": {"recall": 1.0, "reward": 1.5}, "baseline": {"recall": 0.5, "reward": 1.0}}
    figures = {
        "agent": {"recall": 0.75, "reward": 1.25, "reward_terms": {"f_beta": 0.5}},
        "baseline": {"recall": 0.5, "reward": 1.0},
    }
    CorpusHealth.objects.filter(pk=check.pk).update(status="finished", total=1, done=1, figures=figures, tasks=[task])
    ended = owner.get(status_url, HTTP_HX_REQUEST="true")
    assert ended["HX-Refresh"] == "true"
    body = viewer.get(page).content.decode()
    assert "The agent against a single search" in body
    assert "Brightwater</a> → " in body
    assert "1.250" in body
    assert "0.750" in body
    tasks_url = reverse("corpus_health_tasks", kwargs={"slug": slug, "corpus_slug": "market", "check_id": check.pk})
    assert viewer.get(tasks_url)["Content-Disposition"].startswith("attachment")
    assert login(make_user("other")).get(tasks_url).status_code == 404
