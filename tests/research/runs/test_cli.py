"""`context1 search` runs the harness with the heuristic backend on a real (hashing-embedded) corpus."""

from __future__ import annotations

import pytest

from research.corpora import ingestion, services
from research.models import Corpus, Membership, UploadFile
from research.runs import cli

pytestmark = pytest.mark.django_db(transaction=True)


FILES = {
    "press.txt": b"Halvorix announced Project Halyard, sponsored by Dana Okonkwo.",
    "bio.txt": b"Dana Okonkwo previously led storage at Stellique Data.",
    "menu.txt": b"Soup and bread on Monday.",
}


def ingested(owner: Membership, name: str, files: dict[str, bytes]) -> Corpus:
    corpus = services.corpus_create(actor=owner, name=name)
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in files.items()], enqueue=False
    )
    for item in UploadFile.objects.filter(upload=upload):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    ingestion.corpus_refresh_sparse(corpus_id=corpus.pk)
    return corpus


def test_it_prints_sub_queries_and_the_final_documents(make_user, make_workspace, capsys) -> None:  # type: ignore[no-untyped-def]
    owner = Membership.objects.get(workspace=make_workspace(make_user()))
    ingested(owner, "Market", FILES)

    code = cli.main(
        [
            "search",
            "Who sponsors Project Halyard and where did they work before?",
            "--corpus",
            "Market",
            "--rollouts",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "[r0 t1] search_corpus: Who sponsors Project Halyard" in out
    assert "Supporting documents:" in out
    assert "press" in out.split("Supporting documents:")[1]


def test_it_names_an_unknown_corpus(capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["search", "q", "--corpus", "Nope"]) == 2
    assert "no corpus named 'Nope' (nor with that slug)" in capsys.readouterr().err


def test_it_takes_a_slug_or_any_case_and_honours_the_workspace(make_user, make_workspace, capsys) -> None:  # type: ignore[no-untyped-def]
    demo = Membership.objects.select_related("workspace").get(workspace=make_workspace(make_user(), name="Demo"))
    other = Membership.objects.select_related("workspace").get(workspace=make_workspace(make_user(), name="Other"))
    ingested(demo, "Demo corpus", FILES)
    ingested(other, "Demo corpus", {"menu.txt": b"Soup and bread on Monday."})
    question = "Who sponsors Project Halyard?"
    assert cli.main(["search", question, "--corpus", "Demo corpus", "--rollouts", "1"]) == 2
    assert "more than one corpus named 'Demo corpus': in workspaces" in capsys.readouterr().err
    for corpus in ("demo-corpus", "DEMO CORPUS"):
        code = cli.main(["search", question, "--corpus", corpus, "--workspace", demo.workspace.slug, "--rollouts", "1"])
        out = capsys.readouterr().out
        assert code == 0
        assert "press" in out.split("Supporting documents:")[1]
    assert cli.main(["search", question, "--corpus", "Demo corpus", "--workspace", "nowhere"]) == 2
    assert "no workspace 'nowhere'" in capsys.readouterr().err
