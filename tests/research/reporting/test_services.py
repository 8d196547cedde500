"""Writing a finished run's answer: from the run's own corpora only, stored, recorded live, never fatal."""

from __future__ import annotations

import pytest

from research.models import Report, RunEvent, RunStatus
from research.platform import composition
from research.protocol.events import RankedDocument, from_dict
from research.reporting.selectors import evidence_for_run, report_of
from research.runs.execution import run_execute
from tests.research.runs.conftest import ingest, types

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_finished_run_gets_a_verified_answer_stored_and_recorded(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus], rollouts=2)
    assert run_execute(run_id=run.pk) == "finished"
    run.refresh_from_db()
    stored = Report.objects.get(run=run)
    report = report_of(run)
    assert report is not None
    assert stored.writer == report.writer == "extractive"
    assert stored.claims == len(report.summary) > 0
    texts = " ".join(claim.text for claim in report.summary)
    assert "Dana Okonkwo" in texts
    written = RunEvent.objects.get(run=run, type="report_written")
    assert from_dict(written.payload).report == report  # the page shows what is stored
    chunk_ids = {chunk_id for doc in run.result for chunk_id in doc["chunk_ids"]}
    for claim in report.summary:
        assert claim.citations[0].chunk_id in chunk_ids
        assert claim.citations[0].source.endswith(".txt")
    assert run.status == RunStatus.FINISHED


def test_evidence_comes_from_the_runs_own_corpora_only(owner, corpus, start_run, make_user, make_workspace) -> None:  # type: ignore[no-untyped-def]
    from research.models import Membership

    outsider = Membership.objects.get(workspace=make_workspace(make_user()))
    secret = ingest(outsider, "Secret", {"press.txt": b"Halvorix secretly plans layoffs in May."})
    secret_chunk = secret.documents.get().chunks.get()
    run = start_run([corpus], rollouts=1)
    forged = RankedDocument(
        doc_id=secret_chunk.document.doc_id, title="x", score=1.0, chunk_ids=(secret_chunk.chunk_id,)
    )
    for whole in (0, 6):  # a document read whole is read from the run's own corpora too
        texts = [item.text for item in evidence_for_run(run, [forged], whole=whole)]
        assert all("layoffs" not in text for text in texts)


def test_a_report_reads_a_short_document_whole_and_a_long_one_as_found(owner, corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    paragraphs = [f"Plan {n}: Halvorix charges {n} euros a seat. " * 60 for n in range(1, 4)]
    page = ingest(owner, "Pages", {"pricing.txt": "\n\n".join(paragraphs).encode()}).documents.get()
    chunks = list(page.chunks.order_by("index").values_list("chunk_id", flat=True))
    assert len(chunks) >= 3
    run = start_run([corpus, page.corpus], rollouts=1)
    found = RankedDocument(doc_id=page.doc_id, title="Pricing", score=1.0, chunk_ids=(chunks[1],))
    whole = [item.chunk_id for item in evidence_for_run(run, [found], whole=len(chunks))]
    assert whole == [chunks[1], chunks[0], *chunks[2:]]  # what the search found first, then the rest in order
    assert [item.chunk_id for item in evidence_for_run(run, [found], whole=len(chunks) - 1)] == [chunks[1]]
    assert [item.chunk_id for item in evidence_for_run(run, [found])] == [chunks[1]]


def test_a_writer_that_breaks_leaves_the_run_its_documents(corpus, start_run, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    class Broken:
        name = "broken"

        def write(self, brief):  # type: ignore[no-untyped-def]
            raise RuntimeError("writer exploded")

    monkeypatch.setattr("research.reporting.services.writer", lambda name=None: Broken())
    run = start_run([corpus], rollouts=1)
    assert run_execute(run_id=run.pk) == "finished"
    run.refresh_from_db()
    assert run.result
    assert types(run)[-2:] == ["writing_started", "writing_failed"]
    failed = RunEvent.objects.get(run=run, type="writing_failed")
    assert failed.payload["error"] == "RuntimeError: writer exploded"
    assert not Report.objects.filter(run=run).exists()


def test_a_cancelled_run_gets_no_answer(corpus, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([corpus], rollouts=1)
    type(run).objects.filter(pk=run.pk).update(cancel_requested=True, cancel_reason="stop")
    run_execute(run_id=run.pk)
    assert "writing_started" not in types(run)
    assert not Report.objects.filter(run=run).exists()


def test_the_composition_root_builds_the_configured_writer() -> None:
    assert composition.writer().name == "extractive"
