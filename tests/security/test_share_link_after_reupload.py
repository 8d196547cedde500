"""Probe item 1: a share link's passage view read the cited chunk by its id, and a file uploaded again reuses its
chunk ids with the new text: an anonymous holder of the link read a confidential sentence uploaded after sharing, and
the passage beside it. A link now shows a passage only while its text is what the report was written from."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from research.corpora import ingestion
from research.corpora import services as corpora
from research.investigations import services as investigations
from research.models import Chunk, Document, Run, RunStatus, UploadFile
from research.protocol.report import Citation, Claim, Report, Section, Source
from research.reporting.services import report_save
from research.runs import services as runs
from research.sharing import services as sharing
from tests.research.investigations.conftest import Team

pytestmark = pytest.mark.django_db

CITED = "Halvorix opened a Berlin office in June 2026."
FIRST = f"{CITED} The office has twelve people.\n\n" + "Halvorix sells to retailers across Germany. " * 80
SECRET = "CONFIDENTIAL: Halvorix will be sold to Stellique in January."
SECOND = f"{SECRET} {CITED}\n\n" + "Our board meets in Zurich next week to sign. " * 80


def _upload(team: Team, text: str) -> Document:
    upload = corpora.upload_create(
        actor=team.author, corpus=team.corpus, files=[corpora.IncomingFile("press.txt", [text.encode()])], enqueue=False
    )
    for item in UploadFile.objects.filter(upload=upload):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    return Document.objects.get(corpus=team.corpus, source_name="press.txt")


def _shared_report(team: Team, document: Document) -> str:
    chunk = document.chunks.get(index=0)
    run = runs.run_start(
        actor=team.author, question="", corpora=[team.corpus], template="competitor", company="Halvorix"
    )
    ranked = [{"doc_id": document.doc_id, "title": document.title, "score": 1.0, "chunk_ids": [chunk.chunk_id]}]
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED, result=ranked)
    cited = Citation(chunk_id=chunk.chunk_id, doc_id=document.doc_id, quote=CITED, source="press.txt")
    report = Report(
        template="competitor",
        writer="extractive",
        subject="Halvorix",
        sections=(Section(facet="news", title="News", claims=(Claim(text=CITED, citations=(cited,)),)),),
        sources=(Source(doc_id=document.doc_id, title=document.title, source="press.txt"),),
    )
    report_save(run, report)
    run.refresh_from_db()
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    return sharing.share_link_create(actor=team.author, investigation=investigation, run=run).token


def _passage(token: str) -> str:
    visitor = Client()
    page = visitor.get(f"/s/{token}/").content.decode()
    chip = re.search(r'href="(c/[^"]+)"', page)
    assert chip is not None
    return visitor.get(f"/s/{token}/" + chip.group(1).replace("&amp;", "&")).content.decode()


def test_text_uploaded_after_sharing_is_never_shown_through_the_link(team: Team) -> None:
    first = _upload(team, FIRST)
    assert first.chunks.count() >= 2
    token = _shared_report(team, first)
    before = _passage(token)
    assert "The office has twelve people." in before
    ids = set(first.chunks.values_list("chunk_id", flat=True))
    second = _upload(team, SECOND)  # the same file again, with new text
    assert ids & set(Chunk.objects.filter(document=second).values_list("chunk_id", flat=True))  # ids reused
    after = _passage(token)
    assert SECRET not in after
    assert "Zurich" not in after  # nor the new passage beside it
    assert "has changed since the report was written" in after
    assert CITED in Client().get(f"/s/{token}/").content.decode()  # the report itself says what it said then
