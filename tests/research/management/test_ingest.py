from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from research.models import Corpus, Document, Stage, UploadFile


def test_it_ingests_a_folder_in_process_with_corpus_parse_options(make_user, make_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    workspace = make_workspace(make_user("ada"))
    folder = tmp_path / "docs"
    (folder / "nested").mkdir(parents=True)
    (folder / "accounts.csv").write_text("name,region\nAcme,EMEA\nInitech,NA\n")
    (folder / "nested" / "items.jsonl").write_text(
        json.dumps({"headline": "Globex news", "body": "Globex hired a VP.", "author": "x"}) + "\n"
    )
    out = io.StringIO()
    call_command(
        "ingest",
        str(folder),
        workspace=workspace.slug,
        corpus="Market",
        create=True,
        sync=True,
        csv_mode="table",
        json_text_field="body",
        json_title_field="headline",
        stdout=out,
    )
    corpus = Corpus.objects.get(workspace=workspace, name="Market")
    assert corpus.parse_options == {"csv_mode": "table", "json_text_field": "body", "json_title_field": "headline"}
    assert set(UploadFile.objects.values_list("stage", flat=True)) == {Stage.INDEXED}
    titles = sorted(Document.objects.filter(corpus=corpus).values_list("title", flat=True))
    assert len(titles) == 2  # the CSV as one table document, the JSONL line as one document
    assert "Globex news" in titles
    text = out.getvalue()
    assert "accounts.csv  [Searchable by words]" in text  # words first for every file, then their vectors
    assert text.index("BM25 index refreshed: searchable by words") < text.index("accounts.csv  [Indexed]")


def test_it_refuses_an_unknown_corpus_without_create(make_user, make_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    workspace = make_workspace(make_user("ada"))
    (tmp_path / "a.txt").write_text("text")
    with pytest.raises(CommandError, match="add --create"):
        call_command("ingest", str(tmp_path / "a.txt"), workspace=workspace.slug, corpus="Nope", sync=True)
    with pytest.raises(CommandError, match="no such file or folder"):
        call_command("ingest", str(tmp_path / "missing"), workspace=workspace.slug, corpus="Nope", create=True)


def test_it_finds_the_corpus_by_its_slug_or_its_name_in_any_case(make_user, make_workspace, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    workspace = make_workspace(make_user("ada"))
    (tmp_path / "a.txt").write_text("Alpha text.")
    (tmp_path / "b.txt").write_text("Beta text.")
    call_command(
        "ingest",
        str(tmp_path / "a.txt"),
        workspace=workspace.slug,
        corpus="Demo corpus",
        create=True,
        sync=True,
        stdout=io.StringIO(),
    )
    for name, path in (("demo-corpus", "a.txt"), ("DEMO CORPUS", "b.txt")):
        out = io.StringIO()
        call_command(
            "ingest", str(tmp_path / path), workspace=workspace.slug, corpus=name, create=True, sync=True, stdout=out
        )
        assert "into 'Demo corpus'" in out.getvalue()
    assert Corpus.objects.filter(workspace=workspace).count() == 1
    assert Document.objects.count() == 2
