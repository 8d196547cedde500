"""Ingestion through the real pipeline: sandboxed parsing, chunking, Chroma and BM25 (hashing embedder)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from django.contrib.auth.models import User

from research.corpora import ingestion, lease, services, tasks
from research.models import Chunk, Corpus, Document, Membership, Stage, UploadFile
from research.platform.composition import corpus_index
from research.retrieval.embedders import EmbeddingUnavailable

TEXT = b"Globex raised the Team plan to 49 dollars per seat in June 2026.\n\nThe change followed a new VP hire."
CSV_3 = b"name,region,employees\nAcme,EMEA,120\nInitech,NA,4000\nHooli,APAC,900\n"


@pytest.fixture
def owner(make_user: Callable[..., User], make_workspace: Callable[..., Any]) -> Membership:
    user = make_user()
    workspace = make_workspace(user)
    return Membership.objects.get(workspace=workspace, user=user)


@pytest.fixture
def corpus(owner: Membership) -> Corpus:
    return services.corpus_create(actor=owner, name="Market")


def ingest(owner: Membership, corpus: Corpus, files: dict[str, bytes]) -> dict[str, UploadFile]:
    incoming = [services.IncomingFile(name=name, chunks=[data]) for name, data in files.items()]
    upload = services.upload_create(actor=owner, corpus=corpus, files=incoming, enqueue=False)
    done: set[int] = set()
    while pending := list(UploadFile.objects.filter(upload=upload).exclude(pk__in=done)):
        for item in pending:
            ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
            done.add(item.pk)
    ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    return {item.name: item for item in UploadFile.objects.filter(upload=upload)}


def indexed_ids(corpus: Corpus) -> list[str]:
    return sorted(chunk_id for chunk_id, *_ in corpus_index(corpus).dense.iter_headed_texts())


def test_it_takes_a_file_through_every_stage_into_both_indexes(owner: Membership, corpus: Corpus) -> None:
    result = ingest(owner, corpus, {"globex.txt": TEXT})["globex.txt"]
    assert (result.stage, result.error, result.documents_added) == (Stage.INDEXED, "", 1)
    document = Document.objects.get(corpus=corpus)
    assert document.title
    assert indexed_ids(corpus) == sorted(Chunk.objects.filter(document=document).values_list("chunk_id", flat=True))
    assert corpus_index(corpus).sparse.count() == len(indexed_ids(corpus))
    hits = corpus_index(corpus).search("Team plan price per seat")
    assert hits.chunks[0].chunk.doc_id == document.doc_id
    assert hits.chunks[0].chunk_id.startswith(f"{document.doc_id}#")


def test_re_uploading_the_same_file_changes_nothing(owner: Membership, corpus: Corpus) -> None:
    ingest(owner, corpus, {"globex.txt": TEXT})
    before = indexed_ids(corpus)
    again = ingest(owner, corpus, {"globex.txt": TEXT})["globex.txt"]
    assert (again.documents_added, again.documents_unchanged, again.chunks_added) == (0, 1, 0)
    assert indexed_ids(corpus) == before
    assert Document.objects.filter(corpus=corpus).count() == 1


def test_a_changed_file_is_re_embedded_and_its_vanished_rows_removed(owner: Membership, corpus: Corpus) -> None:
    ingest(owner, corpus, {"accounts.csv": CSV_3})
    assert Document.objects.filter(corpus=corpus).count() == 3
    changed = ingest(owner, corpus, {"accounts.csv": b"name,region,employees\nAcme,EMEA,150\nInitech,NA,4000\n"})
    item = changed["accounts.csv"]
    assert (item.documents_added, item.documents_unchanged) == (1, 1)
    assert Document.objects.filter(corpus=corpus).count() == 2
    assert len(indexed_ids(corpus)) == Chunk.objects.filter(document__corpus=corpus).count() == 2
    assert "150" in " ".join(Chunk.objects.filter(document__corpus=corpus).values_list("text", flat=True))
    assert corpus_index(corpus).sparse.query("Hooli", n=5, exclude=frozenset()) == []


def test_one_bad_file_fails_alone_with_a_reason(owner: Membership, corpus: Corpus) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 64
    results = ingest(
        owner, corpus, {"good.txt": TEXT, "empty.txt": b"", "report.pdf": png, "broken.pdf": b"%PDF-1.4 garbage"}
    )
    assert results["good.txt"].stage == Stage.INDEXED
    for name in ("empty.txt", "report.pdf", "broken.pdf"):
        assert results[name].stage == Stage.FAILED, name
        assert results[name].error, name
    assert "empty" in results["empty.txt"].error.lower()
    assert Document.objects.filter(corpus=corpus).count() == 1


def test_an_archive_is_expanded_and_an_unsafe_member_fails_alone(owner: Membership, corpus: Corpus) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("notes/a.txt", TEXT)
        archive.writestr("b.md", b"# Initech\n\nInitech sells vector search to banks.")
        archive.writestr("../evil.txt", b"escape")
    ingest(owner, corpus, {"bundle.zip": buffer.getvalue()})
    archive_item = UploadFile.objects.get(parent__isnull=True)
    members = {item.name: item for item in UploadFile.objects.filter(parent=archive_item).exclude(stage=Stage.FAILED)}
    assert archive_item.stage == Stage.EXPANDED
    assert members["bundle.zip/notes/a.txt"].stage == Stage.INDEXED
    assert members["bundle.zip/b.md"].stage == Stage.INDEXED
    unsafe = list(UploadFile.objects.filter(parent=archive_item, stage=Stage.FAILED))
    assert len(unsafe) == 1
    assert "unsafe path in archive: '../evil.txt'" in unsafe[0].error
    assert sorted(Document.objects.filter(corpus=corpus).values_list("source_name", flat=True)) == [
        "bundle.zip/b.md",
        "bundle.zip/notes/a.txt",
    ]


def test_an_oversized_file_fails_at_upload(owner: Membership, corpus: Corpus, settings: Any) -> None:
    settings.MAX_UPLOAD_MB = 1
    results = ingest(owner, corpus, {"big.txt": b"word " * 300_000, "small.txt": TEXT})
    assert results["big.txt"].stage == Stage.FAILED
    assert "over the size limit of 1 MB" in results["big.txt"].error
    assert results["small.txt"].stage == Stage.INDEXED


def test_a_retry_after_a_crash_resumes_without_duplicates(owner: Membership, corpus: Corpus) -> None:
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile("globex.txt", [TEXT])], enqueue=False
    )
    item = UploadFile.objects.get(upload=upload)
    # A worker claimed it, wrote vectors to Chroma, then died before saving the documents.
    crashed = lease.claim(item.pk)
    assert crashed is not None
    ingestion.upload_file_ingest_safely(upload_file_id=item.pk)  # the lease is live: nothing happens
    assert UploadFile.objects.get(pk=item.pk).stage == Stage.QUEUED
    document_id = ingestion.document_id("globex.txt", "")
    corpus_index(corpus).add([ingestion.IndexChunk(f"{document_id}#0", document_id, 0, "half-written")])
    UploadFile.objects.filter(pk=item.pk).update(claimed_until=None, stage=Stage.EMBEDDED)  # the lease expired
    ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    assert UploadFile.objects.get(pk=item.pk).stage == Stage.INDEXED
    assert indexed_ids(corpus) == sorted(
        Chunk.objects.filter(document__corpus=corpus).values_list("chunk_id", flat=True)
    )
    assert "half-written" not in [text for _, text, *_ in corpus_index(corpus).dense.iter_headed_texts()]


@pytest.mark.parametrize(
    "failure", [EmbeddingUnavailable("connection refused"), httpx.ConnectError("[Errno 111] Connection refused")]
)
def test_an_unavailable_embedder_or_chroma_server_releases_the_file_for_a_retry(
    owner: Membership, corpus: Corpus, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile("globex.txt", [TEXT])], enqueue=False
    )
    item = UploadFile.objects.get(upload=upload)

    def unavailable(self: Any, doc_ids: Any, **kwargs: Any) -> None:
        raise failure

    monkeypatch.setattr(type(corpus_index(corpus)), "refine", unavailable)
    with pytest.raises(type(failure)):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    item.refresh_from_db()
    assert item.claimed_until is None
    assert "retrying" in item.error
    monkeypatch.undo()
    ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    assert UploadFile.objects.get(pk=item.pk).stage == Stage.INDEXED


def test_the_ingest_tasks_may_retry_as_often_as_the_ingestion_allows() -> None:
    # Celery refuses a retry past a task's max_retries (3 by default) by raising, which left the file stuck
    assert tasks.ingest_file.max_retries == tasks.ingest_refine.max_retries == tasks.INGEST_RETRIES


def test_a_file_is_searchable_by_words_before_its_vectors_exist_then_indexed(owner: Membership, corpus: Corpus) -> None:
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile("globex.txt", [TEXT])], enqueue=False
    )
    item = UploadFile.objects.get(upload=upload)
    assert ingestion.upload_file_ingest_safely(upload_file_id=item.pk, refine=False) == corpus.pk
    item.refresh_from_db()
    assert (item.stage, item.documents_added, item.claimed_until) == (Stage.SEARCHABLE, 1, None)
    assert ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)  # a file waiting for vectors holds nothing back
    index, document = corpus_index(corpus), Document.objects.get(corpus=corpus)
    chunks = Chunk.objects.filter(document=document).count()
    assert (index.dense.count(), index.waiting()) == (0, chunks)
    assert index.search("Team plan price per seat").chunks[0].chunk.doc_id == document.doc_id
    assert ingestion.upload_file_refine_safely(upload_file_id=item.pk) == corpus.pk
    item.refresh_from_db()
    assert item.stage == Stage.INDEXED
    assert (index.dense.count(), index.waiting()) == (chunks, 0)
    assert ingestion.upload_file_refine_safely(upload_file_id=item.pk) is None  # indexed: nothing to do


def test_vectors_and_the_bm25_rebuild_wait_while_a_file_waits_for_its_words(owner: Membership, corpus: Corpus) -> None:
    files = [services.IncomingFile(n, [TEXT]) for n in ("a.txt", "b.txt")]
    upload = services.upload_create(actor=owner, corpus=corpus, files=files, enqueue=False)
    first, second = UploadFile.objects.filter(upload=upload).order_by("id")
    ingestion.upload_file_ingest_safely(upload_file_id=first.pk, refine=False)
    assert ingestion.words_pending(corpus.pk)
    assert not ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    ingestion.upload_file_ingest_safely(upload_file_id=second.pk, refine=False)
    assert not ingestion.words_pending(corpus.pk)
    assert ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)


def test_the_refine_task_asks_again_while_words_are_pending_then_embeds(
    owner: Membership, corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    from research.corpora import task_names, tasks

    asked: list[int] = []
    monkeypatch.setattr(task_names, "refine_enqueue", lambda file_id, countdown=None: asked.append(file_id))
    files = [services.IncomingFile(n, [TEXT]) for n in ("a.txt", "b.txt")]
    upload = services.upload_create(actor=owner, corpus=corpus, files=files, enqueue=False)
    first, second = UploadFile.objects.filter(upload=upload).order_by("id")
    ingestion.upload_file_ingest_safely(upload_file_id=first.pk, refine=False)
    tasks.ingest_refine(first.pk)
    assert asked == [first.pk]
    assert UploadFile.objects.get(pk=first.pk).stage == Stage.SEARCHABLE
    ingestion.upload_file_ingest_safely(upload_file_id=second.pk, refine=False)
    tasks.ingest_refine(first.pk)
    assert asked == [first.pk]
    assert UploadFile.objects.get(pk=first.pk).stage == Stage.INDEXED


def test_deleting_a_document_removes_it_from_every_index(owner: Membership, corpus: Corpus) -> None:
    ingest(owner, corpus, {"globex.txt": TEXT, "b.md": b"# Initech\n\nInitech sells vector search to banks."})
    document = Document.objects.get(corpus=corpus, source_name="globex.txt")
    services.document_delete(actor=owner, document=document)
    ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    assert not any(i.startswith(document.doc_id) for i in indexed_ids(corpus))
    assert all(
        not i.startswith(document.doc_id)
        for i, _ in corpus_index(corpus).sparse.query("Globex", n=9, exclude=frozenset())
    )
    assert not Chunk.objects.filter(document_id=document.pk).exists()


def test_a_viewer_cannot_upload(owner: Membership, corpus: Corpus, make_user: Callable[..., User]) -> None:
    viewer = Membership.objects.create(workspace=owner.workspace, user=make_user(), role="viewer")
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.upload_create(actor=viewer, corpus=corpus, files=[services.IncomingFile("a.txt", [TEXT])])
    assert not UploadFile.objects.exists()


@pytest.mark.parametrize("lost", ["before expanding", "while expanding"])
def test_a_worker_that_lost_an_archive_stores_none_of_its_members(
    owner: Membership, corpus: Corpus, monkeypatch: pytest.MonkeyPatch, lost: str
) -> None:
    from research.corpora import archives

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.txt", TEXT)
        archive.writestr("b.txt", TEXT + b" Again.")
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile("bundle.zip", [buffer.getvalue()])], enqueue=False
    )
    item = UploadFile.objects.get(upload=upload)
    real_advance = ingestion.advance
    taken: list[UploadFile] = []

    def stored_then_swept(item: UploadFile, stage: Stage, **fields: object) -> None:
        real_advance(item, stage, **fields)  # the archive is stored; then the sweep gives it to another worker
        UploadFile.objects.filter(pk=item.pk).update(claimed_until=None)
        again = lease.claim(item.pk)
        assert again is not None
        taken.append(again)

    monkeypatch.setattr(ingestion, "advance", stored_then_swept)
    if lost == "while expanding":  # the lease was still held when expansion began: its final write finds it gone
        monkeypatch.setattr(archives, "hold", lambda item, doing: None)
    assert ingestion.upload_file_ingest_safely(upload_file_id=item.pk, refine=False) is None
    item.refresh_from_db()
    assert item.stage == Stage.STORED  # not expanded, not failed: the new holder expands it
    assert item.claimed_until == taken[0].claimed_until
    assert not UploadFile.objects.filter(parent=item).exists()


def test_a_file_over_the_chunk_limit_fails_alone_before_anything_is_embedded(
    owner: Membership, corpus: Corpus, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ingest(owner, corpus, {"long.txt": TEXT})  # the file as it was: one chunk, within any limit
    before = indexed_ids(corpus)
    settings.MAX_FILE_CHUNKS = 3
    stages: list[tuple[str, str, int]] = []
    real_advance = ingestion.advance

    def recording(item: UploadFile, stage: Stage, **fields: object) -> None:
        real_advance(item, stage, **fields)
        stages.append((item.name, item.stage, item.chunks_added))

    monkeypatch.setattr(ingestion, "advance", recording)
    long_text = "\n\n".join(f"Paragraph {n} says something about Globex pricing and plans." * 40 for n in range(8))
    results = ingest(owner, corpus, {"long.txt": long_text.encode(), "short.txt": TEXT})
    refused = results["long.txt"]
    assert refused.stage == Stage.FAILED
    assert refused.error.startswith("this file would be ")
    limit = " over the limit of 3 per file (MAX_FILE_CHUNKS); split it into smaller files or raise the limit"
    assert refused.error.endswith(f" chunks to embed,{limit}")
    assert [stage for name, stage, _ in stages if name == "long.txt"] == [Stage.STORED, Stage.PARSED, Stage.FAILED]
    assert results["short.txt"].stage == Stage.INDEXED
    assert ("short.txt", Stage.CHUNKED, 1) in stages  # a file within the limit shows its cost while it embeds
    long_ids = {i for i in indexed_ids(corpus) if i.startswith(ingestion.document_id("long.txt", ""))}
    assert long_ids == {
        i for i in before if i.startswith(ingestion.document_id("long.txt", ""))
    }  # the old version stays


def test_the_sweep_queues_again_each_file_whose_worker_died_once_for_its_stage(
    owner: Membership, corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from research.corpora import task_names

    queued: list[tuple[str, int]] = []
    monkeypatch.setattr(task_names, "ingest_files_enqueue", lambda ids: queued.extend(("words", i) for i in ids))
    monkeypatch.setattr(
        task_names, "refine_enqueue", lambda file_id, countdown=None: queued.append(("vectors", file_id))
    )
    files = [services.IncomingFile(n, [TEXT]) for n in ("dead.txt", "dead-later.txt", "alive.txt", "waiting.txt")]
    upload = services.upload_create(actor=owner, corpus=corpus, files=files, enqueue=False)
    dead, dead_later, alive, waiting = UploadFile.objects.filter(upload=upload).order_by("id")
    ingestion.upload_file_ingest_safely(upload_file_id=dead_later.pk, refine=False)  # searchable, lease released
    expired, live = timezone.now() - timedelta(seconds=1), timezone.now() + timedelta(minutes=5)
    UploadFile.objects.filter(pk=dead.pk).update(stage=Stage.PARSED, claimed_until=expired)
    UploadFile.objects.filter(pk=dead_later.pk).update(claimed_until=expired)  # died while embedding
    UploadFile.objects.filter(pk=alive.pk).update(stage=Stage.CHUNKED, claimed_until=live)
    assert sorted(lease.sweep_stuck()) == [(dead.pk, "parsed"), (dead_later.pk, "searchable")]
    assert sorted(queued) == [("vectors", dead_later.pk), ("words", dead.pk)]
    assert lease.sweep_stuck() == []  # released: queued once, not at every sweep
    assert UploadFile.objects.get(pk=waiting.pk).claimed_until is None  # never claimed: its task is on its way
    assert lease.claim(dead.pk) is not None  # the re-queued task can take it


def _eight_firms(owner: Membership, corpus: Corpus) -> UploadFile:
    """A CSV of eight rows (eight documents) uploaded and not yet ingested."""
    rows = "".join(f"Firm {n},EMEA,{100 + n}\n" for n in range(8))
    upload = services.upload_create(
        actor=owner,
        corpus=corpus,
        files=[services.IncomingFile("firms.csv", [f"name,region,employees\n{rows}".encode()])],
        enqueue=False,
    )
    return UploadFile.objects.get(upload=upload)


def test_a_worker_storing_many_documents_renews_its_lease_so_the_sweep_leaves_its_file_alone(
    owner: Membership, corpus: Corpus, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    import time

    from research.corpora import task_names
    from research.retrieval.corpus import HybridCorpus

    settings.INGEST_LEASE_SECONDS = 2
    queued: list[int] = []
    monkeypatch.setattr(task_names, "ingest_files_enqueue", queued.extend)
    monkeypatch.setattr(task_names, "refine_enqueue", lambda file_id, countdown=None: queued.append(file_id))
    store = HybridCorpus.add_words
    swept: list[list[tuple[int, str]]] = []

    def slow(self: HybridCorpus, chunks: Any) -> None:  # a slow store: the stage outlasts the 2 s lease
        store(self, chunks)
        time.sleep(0.45)
        swept.append(lease.sweep_stuck())

    monkeypatch.setattr(HybridCorpus, "add_words", slow)
    item = _eight_firms(owner, corpus)
    ingestion.upload_file_ingest_safely(upload_file_id=item.pk, refine=False)
    assert len(swept) == 8  # 3.6 s of storing, with a sweep after each document
    assert swept == [[]] * 8
    assert queued == []
    item.refresh_from_db()
    assert (item.stage, item.documents_added) == (Stage.SEARCHABLE, 8)


def test_a_worker_that_lost_its_file_writes_nothing_more_and_leaves_the_new_holder_alone(
    owner: Membership, corpus: Corpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    from research.retrieval.corpus import HybridCorpus

    store = HybridCorpus.add_words
    stored: list[str] = []
    taken: list[UploadFile] = []

    def paused(self: HybridCorpus, chunks: Any) -> None:  # after its third document, the worker is presumed dead
        store(self, chunks)
        stored.append(chunks[0].doc_id)
        if len(stored) == 3:
            UploadFile.objects.filter(pk=item.pk).update(claimed_until=None)  # the sweep releases the file ...
            again = lease.claim(item.pk)  # ... and another worker claims it
            assert again is not None
            taken.append(again)

    monkeypatch.setattr(HybridCorpus, "add_words", paused)
    item = _eight_firms(owner, corpus)
    assert ingestion.upload_file_ingest_safely(upload_file_id=item.pk, refine=False) is None
    assert len(stored) == 3  # it stopped before its next document
    item.refresh_from_db()
    assert item.stage == Stage.CHUNKED  # not failed, not advanced by the worker that lost it
    assert item.error == ""
    assert item.claimed_until == taken[0].claimed_until  # the new holder's lease stands
    assert not Document.objects.filter(upload_file=item).exists()
