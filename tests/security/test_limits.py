"""Probe item 5: no limits per member or workspace. 200 run starts were accepted in 8.5 s and another workspace's
run waited behind them; 100 invitations went out in 2.4 s; refused uploads left their bytes on disk; a zip of
files each under the per-file cap added 2,826 chunks.

Now: runs waiting or running are capped per member and per workspace (429 with Retry-After), a workspace's runs
take turns with other workspaces' on the workers, invitations are rate-limited, and a workspace has a storage
quota and an embedding budget that its corpus page shows."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from research.batches.services import batch_create
from research.corpora import ingestion, storage
from research.corpora import services as corpora
from research.invitations.services import invitation_create
from research.models import Corpus, Document, Membership, Run, RunStatus, Stage, UploadFile
from research.platform.queue import task_send
from research.platform.quotas import OverLimit, mebibytes
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
    client = Client()
    client.force_login(owner.user)
    form = {"file": SimpleUploadedFile("companies.csv", csv, "text/csv"), "corpora": [corpus.pk]}
    page = client.post(reverse("batch_create", kwargs={"slug": owner.workspace.slug}), form, HTTP_HX_REQUEST="true")
    assert page.status_code == 429
    assert "so 1 fit now" in page.content.decode()  # said under the file, in the ICP card
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


@pytest.mark.django_db
def test_a_free_worker_that_loses_the_race_for_a_run_takes_the_next_one(  # type: ignore[no-untyped-def]
    make_user, make_workspace, settings, monkeypatch
) -> None:
    """Four runs of one workspace, several free workers: the order names the workspace's oldest run, another worker
    takes it first; this one takes the next waiting run instead of spending its message on nothing."""
    settings.RUNS_CONCURRENT_PER_WORKSPACE = 4
    member, corpus = _member(make_user, make_workspace, "team")
    waiting = [_start(member, corpus) for _ in range(4)]
    taken_by_others: list[int] = []

    def another_worker_first(*, run_id: int, cap: int | None = None):  # type: ignore[no-untyped-def]
        if len(taken_by_others) < 2:  # two other workers take the named run just before this one's claim
            assert run_claim(run_id=run_id, cap=cap) is not None
            taken_by_others.append(run_id)
            return None
        return run_claim(run_id=run_id, cap=cap)

    monkeypatch.setattr(dispatch, "run_claim", another_worker_first)
    assert _next() == waiting[2].pk
    assert taken_by_others == [waiting[0].pk, waiting[1].pk]
    assert Run.objects.filter(status=RunStatus.RUNNING).count() == 3


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


# --- uploads: refused files leave nothing on disk; a storage quota and an embedding budget per workspace --------


def _ingest_all(member: Membership, corpus: Corpus, files: dict[str, bytes]) -> dict[str, UploadFile]:
    """Upload ``files`` and take each (an archive's members too) through the pipeline in this process."""
    incoming = [corpora.IncomingFile(name=name, chunks=[data]) for name, data in files.items()]
    upload = corpora.upload_create(actor=member, corpus=corpus, files=incoming, enqueue=False)
    done: set[int] = set()
    while waiting := list(UploadFile.objects.filter(upload=upload).exclude(pk__in=done).order_by("pk")):
        for item in waiting:
            ingestion.upload_file_ingest_safely(upload_file_id=item.pk, refine=False)
            done.add(item.pk)
    return {item.name: item for item in UploadFile.objects.filter(upload=upload)}


@pytest.fixture
def media(settings, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """A folder of uploads of this test's own."""
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def _on_disk(corpus: Corpus) -> list[Path]:
    folder = storage.corpus_folder(corpus.pk)
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.mark.django_db
@pytest.mark.usefixtures("media")
def test_a_refused_file_leaves_no_bytes_on_disk(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    member, corpus = _member(make_user, make_workspace, "ada")
    files = _ingest_all(member, corpus, {"broken.pdf": b"%PDF-1.7 not a pdf at all " * 4000, "empty.txt": b""})
    assert {item.stage for item in files.values()} == {Stage.FAILED}
    assert all(item.error for item in files.values())
    assert [item.stored_path for item in files.values()] == ["", ""]
    assert _on_disk(corpus) == []


@pytest.mark.django_db
@pytest.mark.usefixtures("media")
def test_the_workspace_storage_quota_refuses_what_does_not_fit(  # type: ignore[no-untyped-def]
    make_user, make_workspace, settings
) -> None:
    settings.WORKSPACE_STORAGE_MB = 1
    member, corpus = _member(make_user, make_workspace, "ada")
    other = corpora.corpus_create(actor=member, name="Other")  # the quota is the workspace's, over its corpora
    text = b"Globex raised the Team plan to 49 dollars per seat in June 2026.\n" * 9000  # ~0.56 MB
    incoming = [corpora.IncomingFile("first.txt", [text])]
    corpora.upload_create(actor=member, corpus=corpus, files=incoming, enqueue=False)
    upload = corpora.upload_create(
        actor=member, corpus=other, files=[corpora.IncomingFile("second.txt", [text])], enqueue=False
    )
    refused = UploadFile.objects.get(upload=upload)
    assert refused.stage == Stage.FAILED
    assert "WORKSPACE_STORAGE_MB" in refused.error
    assert _on_disk(other) == []
    assert len(_on_disk(corpus)) == 1

    client = Client()
    client.force_login(member.user)
    page = client.get(reverse("corpus_detail", kwargs={"slug": member.workspace.slug, "corpus_slug": corpus.slug}))
    shown = page.content.decode()
    assert f"{mebibytes(len(text))} of 1.0 MB stored" in shown
    assert "Nearly full" not in shown


@pytest.mark.django_db(transaction=True)  # an archive's and a deleted document's bytes go once committed
@pytest.mark.usefixtures("media")
def test_a_zip_of_small_files_cannot_pass_the_workspace_embedding_budget(  # type: ignore[no-untyped-def]
    make_user, make_workspace, settings
) -> None:
    """The probe's zip: every member under the per-file cap; together they stop at the workspace's budget."""
    settings.MAX_FILE_CHUNKS = 1
    settings.WORKSPACE_MAX_CHUNKS = 3
    member, corpus = _member(make_user, make_workspace, "ada")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number in range(6):
            archive.writestr(f"note-{number}.txt", f"Note {number}: Globex hired a new VP of Sales in June 2026.")
    files = _ingest_all(member, corpus, {"bundle.zip": buffer.getvalue()})
    members = [item for name, item in files.items() if name != "bundle.zip"]
    assert sorted(item.stage for item in members) == [Stage.FAILED] * 3 + [Stage.SEARCHABLE] * 3
    assert all("WORKSPACE_MAX_CHUNKS" in item.error for item in members if item.stage == Stage.FAILED)
    assert Document.objects.filter(corpus=corpus).aggregate(n=Sum("chunk_count"))["n"] == 3
    assert files["bundle.zip"].stored_path == ""  # the archive's bytes went once its members were stored
    assert len(_on_disk(corpus)) == 3  # the three members indexed, nothing of the refused ones

    document = Document.objects.filter(corpus=corpus).first()
    assert document is not None
    corpora.document_delete(actor=member, document=document)  # makes room, and its file's bytes go with it
    assert len(_on_disk(corpus)) == 2
    again = _ingest_all(member, corpus, {"late.txt": b"Globex opened an office in Lyon in 2026."})
    assert again["late.txt"].stage == Stage.SEARCHABLE


# --- invitations: a rate per workspace and per inviting member ------------------------------------------------


@pytest.mark.django_db
def test_invitations_past_the_hourly_rate_are_refused_with_retry_after(  # type: ignore[no-untyped-def]
    make_user, make_workspace, settings, mailoutbox
) -> None:
    settings.INVITATIONS_PER_HOUR = 3
    owner, _ = _member(make_user, make_workspace, "olga")
    for number in range(3):
        invitation_create(actor=owner, email=f"lead{number}@example.com", role="viewer")
    with pytest.raises(OverLimit, match="INVITATIONS_PER_HOUR") as refused:
        invitation_create(actor=owner, email="lead9@example.com", role="viewer")
    assert 3500 <= (refused.value.retry_after or 0) <= 3600
    assert len(mailoutbox) == 3

    second = Membership.objects.get(workspace=make_workspace(owner.user, "Second team"))
    with pytest.raises(OverLimit, match="sent by you"):  # a new workspace does not reset the member's rate
        invitation_create(actor=second, email="lead9@example.com", role="viewer")

    client = Client()
    client.force_login(owner.user)
    answer = client.post(
        reverse("invitation_create", kwargs={"slug": owner.workspace.slug}),
        {"email": "lead9@example.com", "role": "viewer"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 429
    assert int(answer["Retry-After"]) > 3000
    assert "the most allowed" in answer.content.decode()
    assert len(mailoutbox) == 3


@pytest.mark.django_db
def test_a_run_the_product_did_not_queue_is_not_taken_by_a_free_worker(make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    """A benchmark's synthetic run (no enqueued_at) is streamed by its own task, never run as a search."""
    member, _ = _member(make_user, make_workspace, "bench")
    Run.objects.create(workspace=member.workspace, question="bench_events", rollouts=1)
    assert _next() is None
