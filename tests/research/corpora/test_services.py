"""Corpus services: names unique per workspace whatever their case, renaming, and deleting with both indexes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from research.corpora import ingestion, selectors, services, storage
from research.models import Chunk, Corpus, Document, Membership, Run, RunStatus, Stage, UploadFile
from research.platform.composition import chroma_client, corpus_index

TEXT = b"Globex raised the Team plan to 49 dollars per seat in June 2026."


@pytest.fixture
def owner(make_user: Callable[..., User], make_workspace: Callable[..., Any]) -> Membership:
    return Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(make_user()))


def ingested(owner: Membership, name: str, files: dict[str, bytes]) -> Corpus:
    corpus = services.corpus_create(actor=owner, name=name)
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in files.items()], enqueue=False
    )
    for item in UploadFile.objects.filter(upload=upload):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    return corpus


def test_it_refuses_a_second_corpus_of_the_same_name_in_any_case(owner: Membership) -> None:
    services.corpus_create(actor=owner, name="Demo corpus")
    for name in ("Demo corpus", "demo CORPUS", "  Demo Corpus "):
        with pytest.raises(ValidationError) as refused:
            services.corpus_create(actor=owner, name=name)
        assert refused.value.message_dict["name"] == [
            f"This workspace already has a corpus named “{name.strip()}”; choose another name."
        ]
    assert Corpus.objects.count() == 1


def test_non_ascii_names_differing_in_case_are_one_name(owner: Membership) -> None:
    services.corpus_create(actor=owner, name="Études")
    with pytest.raises(ValidationError):
        services.corpus_create(actor=owner, name="ÉTUDES")


def test_the_same_name_is_fine_in_another_workspace(
    owner: Membership, make_user: Callable[..., User], make_workspace: Callable[..., Any]
) -> None:
    other = Membership.objects.get(workspace=make_workspace(make_user()))
    services.corpus_create(actor=owner, name="Demo corpus")
    services.corpus_create(actor=other, name="demo corpus")
    assert Corpus.objects.count() == 2


def test_the_database_refuses_a_duplicate_name_that_skips_the_service(owner: Membership) -> None:
    Corpus.objects.create(workspace=owner.workspace, name="Market", slug="market")
    with pytest.raises(IntegrityError), transaction.atomic():
        Corpus.objects.create(workspace=owner.workspace, name="MARKET", slug="market-2")


def test_a_name_taken_by_a_concurrent_request_is_a_clear_error(
    owner: Membership, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = services._free_name
    calls: list[str] = []

    def racing(actor: Membership, name: str, **options: Any) -> str:
        calls.append(name)
        checked = real(actor, name, **options)
        if len(calls) == 1:  # another request creates the name between the check and the insert
            Corpus.objects.create(workspace=actor.workspace, name="MARKET", slug="other")
        return checked

    monkeypatch.setattr(services, "_free_name", racing)
    with pytest.raises(ValidationError, match="already has a corpus named “Market”"):
        services.corpus_create(actor=owner, name="Market")
    assert calls == ["Market", "Market"]


def test_a_corpus_is_renamed_and_keeps_its_slug(owner: Membership) -> None:
    corpus = services.corpus_create(actor=owner, name="Market")
    services.corpus_create(actor=owner, name="Press")
    services.corpus_rename(actor=owner, corpus=corpus, name="  Market watch ", description=" Competitors ")
    corpus.refresh_from_db()
    assert (corpus.name, corpus.slug, corpus.description) == ("Market watch", "market", "Competitors")
    services.corpus_rename(actor=owner, corpus=corpus, name="MARKET WATCH", description="")  # its own name: fine
    with pytest.raises(ValidationError, match="already has a corpus named “press”"):
        services.corpus_rename(actor=owner, corpus=corpus, name="press", description="")
    with pytest.raises(ValidationError, match="needs a name"):
        services.corpus_rename(actor=owner, corpus=corpus, name="   ", description="")
    assert Corpus.objects.get(pk=corpus.pk).name == "MARKET WATCH"


def test_a_viewer_can_neither_rename_nor_delete(owner: Membership, make_user: Callable[..., User]) -> None:
    corpus = services.corpus_create(actor=owner, name="Market")
    viewer = Membership.objects.create(workspace=owner.workspace, user=make_user(), role="viewer")
    with pytest.raises(PermissionDenied):
        services.corpus_rename(actor=viewer, corpus=corpus, name="Mine", description="")
    with pytest.raises(PermissionDenied):
        services.corpus_delete(actor=viewer, corpus=corpus)
    assert Corpus.objects.get().name == "Market"


def test_deleting_a_corpus_removes_its_rows_both_indexes_and_its_files(
    owner: Membership, django_capture_on_commit_callbacks: Any, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path  # corpus ids restart in every test's transaction; their folders must not mix
    corpus = ingested(owner, "Market", {"globex.txt": TEXT, "b.md": b"# Initech\n\nInitech sells search."})
    keep = ingested(owner, "Press", {"press.txt": b"Halvorix announced Project Halyard."})
    bm25_folder = settings.DATA_DIR / "bm25" / corpus.index_key
    files_folder = storage.corpus_folder(corpus.pk)
    assert bm25_folder.is_dir()
    assert len(list(files_folder.iterdir())) == 2
    assert corpus.collection_name in [c.name for c in chroma_client().list_collections()]
    with django_capture_on_commit_callbacks(execute=True):
        services.corpus_delete(actor=owner, corpus=corpus)
    assert not Corpus.objects.filter(pk=corpus.pk).exists()
    assert not Document.objects.filter(corpus_id=corpus.pk).exists()
    assert Chunk.objects.filter(document__corpus=keep).count() == 1
    assert not UploadFile.objects.filter(upload__corpus_id=corpus.pk).exists()
    assert corpus.collection_name not in [c.name for c in chroma_client().list_collections()]
    assert not bm25_folder.exists()
    assert not files_folder.exists()
    hits = corpus_index(keep).search("Project Halyard")  # the other corpus is untouched
    assert hits.chunks[0].chunk.title


def test_deleting_is_refused_while_a_run_uses_the_corpus(
    owner: Membership, django_capture_on_commit_callbacks: Any
) -> None:
    corpus = ingested(owner, "Market", {"globex.txt": TEXT})
    run = Run.objects.create(workspace=owner.workspace, question="q", status=RunStatus.RUNNING)
    run.corpora.add(corpus)
    with pytest.raises(ValidationError) as refused:
        services.corpus_delete(actor=owner, corpus=corpus)
    assert refused.value.messages == [
        f"“Market” is in use by run {run.pk} (running); delete it once the run has finished or been cancelled."
    ]
    assert Document.objects.filter(corpus=corpus).count() == 1
    assert corpus_index(corpus).dense.count() == 1
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED)
    with django_capture_on_commit_callbacks(execute=True):
        services.corpus_delete(actor=owner, corpus=corpus)
    assert Run.objects.get(pk=run.pk).corpora.count() == 0  # the finished run stays, with its events


def test_deleting_is_refused_while_a_file_is_being_ingested(owner: Membership) -> None:
    corpus = services.corpus_create(actor=owner, name="Market")
    services.upload_create(actor=owner, corpus=corpus, files=[services.IncomingFile("a.txt", [TEXT])], enqueue=False)
    with pytest.raises(ValidationError, match="1 file\\(s\\) of “Market” are still being ingested"):
        services.corpus_delete(actor=owner, corpus=corpus)
    UploadFile.objects.update(stage=Stage.FAILED)
    services.corpus_delete(actor=owner, corpus=corpus)
    assert not Corpus.objects.exists()


def test_an_empty_file_fails_alone_at_upload(owner: Membership) -> None:
    corpus = services.corpus_create(actor=owner, name="Market")
    upload = services.upload_create(
        actor=owner,
        corpus=corpus,
        files=[services.IncomingFile("empty.txt", [b""]), services.IncomingFile("a.txt", [TEXT])],
        enqueue=False,
    )
    rows = {item.name: (item.stage, item.error) for item in upload.files.all()}
    assert rows == {"empty.txt": (Stage.FAILED, "the file is empty"), "a.txt": (Stage.QUEUED, "")}


def test_corpus_find_takes_a_name_in_any_case_or_a_slug_and_a_workspace(
    owner: Membership, make_user: Callable[..., User], make_workspace: Callable[..., Any]
) -> None:
    other = Membership.objects.select_related("workspace").get(workspace=make_workspace(make_user()))
    mine = services.corpus_create(actor=owner, name="Demo corpus")
    theirs = services.corpus_create(actor=other, name="Demo corpus")
    renamed = services.corpus_create(actor=owner, name="Old name")
    services.corpus_rename(actor=owner, corpus=renamed, name="New name", description="")
    slug = owner.workspace.slug
    assert selectors.corpus_find(name_or_slug="demo CORPUS", workspace_slug=slug) == mine
    assert selectors.corpus_find(name_or_slug="demo-corpus", workspace_slug=other.workspace.slug) == theirs
    assert selectors.corpus_find(name_or_slug="old-name") == renamed
    with pytest.raises(LookupError, match="more than one corpus named 'Demo corpus': in workspaces"):
        selectors.corpus_find(name_or_slug="Demo corpus")
    with pytest.raises(LookupError, match="no workspace 'nowhere'"):
        selectors.corpus_find(name_or_slug="Demo corpus", workspace_slug="nowhere")
    with pytest.raises(LookupError, match=f"no corpus named 'Press' \\(nor with that slug\\) in workspace '{slug}'"):
        selectors.corpus_find(name_or_slug="Press", workspace_slug=slug)


def test_an_upload_to_a_corpus_deleted_meanwhile_is_refused_and_stores_nothing(
    owner: Membership, settings: Any, tmp_path: Path
) -> None:
    """The page read the corpus, then another member deleted it: the upload says so instead of an integrity error."""
    settings.MEDIA_ROOT = tmp_path
    corpus = services.corpus_create(actor=owner, name="Market")
    stale = Corpus.objects.get(pk=corpus.pk)
    services.corpus_delete(actor=owner, corpus=corpus)
    with pytest.raises(ValidationError) as refused:
        services.upload_create(actor=owner, corpus=stale, files=[services.IncomingFile("a.txt", [TEXT])])
    assert refused.value.message_dict == {"upload": ["“Market” was deleted meanwhile; nothing was uploaded."]}
    assert not UploadFile.objects.exists()
    assert not storage.corpus_folder(stale.pk).exists()


def test_a_file_whose_bytes_are_gone_cannot_be_ingested_again(owner: Membership) -> None:
    ingested(owner, "Feeds", {"scores.jsonl": b'{"id": 1, "score": 0.5}\n'})
    item = UploadFile.objects.get()
    assert (item.stage, item.stored_path) == (Stage.FAILED, "")
    assert "their fields: id, score" in item.error

    with pytest.raises(ValidationError, match="its bytes are no longer kept"):
        services.upload_file_reingest(actor=owner, item=item)


def test_changing_the_parsing_options_keeps_the_others_and_clears_blank_optional_ones(owner: Membership) -> None:
    corpus = services.corpus_create(
        actor=owner, name="Sheets", parse_options={"csv_mode": "table", "csv_group_by": "region", "chunk": 1}
    )

    services.corpus_parsing_set(
        actor=owner, corpus=corpus, parse_options={"csv_mode": "row", "json_text_field": "body"}
    )

    assert Corpus.objects.get(pk=corpus.pk).parse_options == {"csv_mode": "row", "json_text_field": "body", "chunk": 1}
