"""Probe item 5: no limits per member or workspace. 200 run starts were accepted in 8.5 s and another workspace's
run waited behind them; 100 invitations went out in 2.4 s; refused uploads left their bytes on disk; a zip of
files each under the per-file cap added 2,826 chunks.

Now: runs waiting or running are capped per member and per workspace (429 with Retry-After), a workspace's runs
take turns with other workspaces' on the workers, invitations are rate-limited, and a workspace has a storage
quota and an embedding budget that its corpus page shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from research.batches.services import batch_create
from research.corpora import services as corpora
from research.models import Corpus, Membership, Run, RunStatus
from research.platform.queue import task_send
from research.platform.quotas import OverLimit
from research.runs import dispatch
from research.runs import services as runs
from research.runs.lease import run_claim
from research.workspaces.services import workspace_icp_set
from tests.support import processes

QUESTION = "Who sponsors Project Halyard?"


def _member(make_user, make_workspace, name: str) -> tuple[Membership, Corpus]:  # type: ignore[no-untyped-def]
    workspace = make_workspace(make_user(name), f"{name}'s team")
    member = Membership.objects.select_related("workspace", "user").get(workspace=workspace)
    return member, corpora.corpus_create(actor=member, name="Market")


def _start(member: Membership, corpus: Corpus) -> Run:
    return runs.run_start(actor=member, question=QUESTION, corpora=[corpus], rollouts=1)


# --- runs: caps per member and per workspace ---------------------------------------------------------------


@pytest.mark.django_db
def test_a_member_past_their_cap_is_refused_with_when_to_retry(make_user, make_workspace, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RUNS_ACTIVE_PER_USER = 3
    member, corpus = _member(make_user, make_workspace, "ada")
    started = [_start(member, corpus) for _ in range(3)]
    with pytest.raises(OverLimit) as refused:
        _start(member, corpus)
    assert "RUNS_ACTIVE_PER_USER" in refused.value.message_text
    assert (refused.value.retry_after or 0) >= 10
    assert Run.objects.filter(created_by=member.user).count() == 3  # nothing was created by the refused start

    # another workspace of the same member does not give them more places
    other = Membership.objects.get(workspace=make_workspace(member.user, "Second team"))
    with pytest.raises(OverLimit):
        _start(other, corpora.corpus_create(actor=other, name="Other"))

    Run.objects.filter(pk=started[0].pk).update(status=RunStatus.FINISHED, finished_at=timezone.now())
    assert _start(member, corpus).status == RunStatus.QUEUED  # a finished run frees its place


@pytest.mark.django_db
def test_the_refusal_is_a_429_with_retry_after_over_json_and_on_the_form(  # type: ignore[no-untyped-def]
    make_user, make_workspace, settings
) -> None:
    settings.RUNS_ACTIVE_PER_USER = 1
    member, corpus = _member(make_user, make_workspace, "ada")
    _start(member, corpus)
    client = Client()
    client.force_login(member.user)
    slug = member.workspace.slug
    data = {"question": QUESTION, "corpora": [corpus.pk], "rollouts": 1}

    answer = client.post(reverse("run_start", kwargs={"slug": slug}), data)
    assert answer.status_code == 429
    assert int(answer["Retry-After"]) >= 10
    body = answer.json()
    assert body["retry_after"] == int(answer["Retry-After"])
    assert "RUNS_ACTIVE_PER_USER" in " ".join(body["errors"]["__all__"])

    form = {**data, "template": "question", "budget": 32768, "max_turns": 16}
    page = client.post(reverse("run_index", kwargs={"slug": slug}), form, HTTP_HX_REQUEST="true")
    assert page.status_code == 429
    assert int(page["Retry-After"]) >= 10
    assert "the most one member may have at once" in page.content.decode()
    assert Run.objects.filter(workspace=member.workspace).count() == 1


@pytest.mark.django_db
def test_a_workspace_cap_counts_every_member_and_refuses_a_batch_whole(  # type: ignore[no-untyped-def]
    make_user, make_workspace, settings
) -> None:
    settings.RUNS_ACTIVE_PER_WORKSPACE = 3
    owner, corpus = _member(make_user, make_workspace, "olga")
    editor_user = make_user("ed")
    editor = Membership.objects.create(workspace=owner.workspace, user=editor_user, role="editor")
    _start(owner, corpus)
    _start(editor, corpus)
    workspace_icp_set(actor=owner, text="Between 50 and 500 employees")
    csv = b"company\nAcme\nGlobex\nInitech\n"
    with pytest.raises(OverLimit) as refused:
        batch_create(actor=owner, file_name="companies.csv", data=csv, corpora=[corpus])
    assert "1 fit now" in refused.value.message_text
    assert Run.objects.filter(workspace=owner.workspace).count() == 2  # no row of the batch started
    _start(editor, corpus)
    with pytest.raises(OverLimit, match="RUNS_ACTIVE_PER_WORKSPACE"):
        _start(owner, corpus)


# --- runs: fair turns between workspaces on the workers -----------------------------------------------------


def _next() -> int | None:
    """The run a free worker claims now."""
    claim = dispatch.claim_next()
    return None if claim is None else claim.run_id


@pytest.mark.django_db
def test_a_free_worker_takes_the_workspace_waiting_longest_for_a_turn(  # type: ignore[no-untyped-def]
    make_user, make_workspace, settings
) -> None:
    settings.RUNS_CONCURRENT_PER_WORKSPACE = 2
    busy, busy_corpus = _member(make_user, make_workspace, "busy")
    quiet, quiet_corpus = _member(make_user, make_workspace, "quiet")
    flood = [_start(busy, busy_corpus) for _ in range(5)]
    late = _start(quiet, quiet_corpus)

    assert _next() == flood[0].pk  # nobody ran yet: the oldest run
    assert _next() == late.pk  # the busy workspace has one running: the other's turn
    assert _next() == flood[1].pk
    assert _next() is None  # the busy workspace is at its cap of 2; its other runs wait
    assert run_claim(run_id=flood[2].pk, cap=2) is None


@pytest.mark.services
def test_a_workspace_flooding_the_queue_does_not_keep_another_waiting_behind_it(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path
) -> None:
    """A real worker with one place: the runs of a workspace that queued five first, and one run queued after them
    by another workspace, which starts second, not sixth."""
    busy, busy_corpus = _member(make_user, make_workspace, "busy")
    quiet, quiet_corpus = _member(make_user, make_workspace, "quiet")
    flood = [_start(busy, busy_corpus) for _ in range(5)]
    late = _start(quiet, quiet_corpus)
    every = [*flood, late]
    for run in every:  # what run_start enqueues after commit (this package's tests have no queue otherwise)
        task_send(runs.RUN_TASK, run.pk)
    warmup = "research.platform.warmup.open_chroma"
    env = {**process_env, "WORKER_CONCURRENCY": "1", "RUNS_CONCURRENT_PER_WORKSPACE": "1", "WORKER_WARMUP": warmup}
    log = tmp_path / "worker.log"
    worker = processes.worker(env, log, "runs", ready=f"warm-up {warmup} done")
    try:
        processes.wait_for(
            lambda: Run.objects.filter(pk__in=[r.pk for r in every], finished_at__isnull=False).count() == 6,
            timeout=120,
            what="the six runs",
            process=worker,
            log=log,
        )
    finally:
        processes.stop_all(worker)
    order = list(Run.objects.filter(pk__in=[r.pk for r in every]).order_by("started_at").values_list("pk", flat=True))
    assert order.index(late.pk) == 1, (order, late.pk, processes.tail(log))
    assert set(Run.objects.filter(pk__in=order).values_list("status", flat=True)) == {RunStatus.FINISHED}
