"""Report exports and the viewer's quote: members only, built from the stored report, document text escaped."""

from __future__ import annotations

import io
import json

import lxml.html
import pytest
from django.urls import reverse
from docx import Document as WordDocument
from markdown_it import MarkdownIt
from pypdf import PdfReader

from research.models import Chunk, Document, Membership, Run
from research.protocol.report import Citation, Claim, CriterionResult, Removed, Report, Section, Source
from research.reporting.exports import markdown, md_escape, pdf
from research.reporting.services import report_save
from research.runs import services as runs

pytestmark = pytest.mark.django_db

TEXT = "Intro line.\nDana Okonkwo sponsors [Project](http://evil.example) Halyard since 2024. More text."
QUOTE = "Dana Okonkwo sponsors [Project](http://evil.example) Halyard since 2024."


@pytest.fixture
def reported(team):  # type: ignore[no-untyped-def]
    workspace, corpus, ada, vic, eve = team
    document = Document.objects.create(
        corpus=corpus, doc_id="press", title="Press release", source_name="press.txt", kind="text", content_hash="h"
    )
    Chunk.objects.create(document=document, index=0, chunk_id="press#0", text=TEXT)
    owner = Membership.objects.get(user=ada, workspace=workspace)
    run = runs.run_start(actor=owner, question="Who sponsors Halyard?", corpora=[corpus], rollouts=1)
    citation = Citation(chunk_id="press#0", doc_id="press", quote=QUOTE, source="press.txt")
    report = Report(
        template="question",
        writer="extractive",
        subject="Who sponsors Halyard?",
        summary=(Claim(text=QUOTE, citations=(citation,), date="2024-05-01"),),
        removed=(Removed(text="Dana founded Initech.", reason="its quotes do not contain 'initech'"),),
        sources=(Source(doc_id="press", title="Press release", source="press.txt", date="2024-05-01"),),
    )
    report_save(run, report)
    return workspace, run, ada, vic, eve


def _export(workspace, run, fmt):  # type: ignore[no-untyped-def]
    return reverse("report_export", kwargs={"slug": workspace.slug, "run_id": run.pk, "fmt": fmt})


def test_markdown_export_has_claims_footnotes_removed_claims_and_evidence(reported, login) -> None:  # type: ignore[no-untyped-def]
    workspace, run, _ada, vic, _eve = reported
    response = login(vic).get(_export(workspace, run, "md"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="run-{run.pk}-report.md"'
    text = response.content.decode()
    assert "- Dana Okonkwo sponsors \\[Project\\](http://evil.example) Halyard since 2024.[^1]" in text
    assert "[^1]: Press release (press.txt, 2024-05-01):" in text
    assert "## Removed by the citation check" in text
    assert "| 1 | Dana Okonkwo" in text
    html = MarkdownIt("commonmark").render(text)
    assert "<a " not in html  # document text cannot make a link in the export
    assert text.startswith(f"# Answer: Who sponsors Halyard?\n\n*Run {run.pk} · {workspace.name}*")


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("Rated 4.6 by B2B-ready teams (2026).", "Rated 4.6 by B2B-ready teams (2026)."),
        ("# Heading? *bold* and `code` <b>x</b>", "\\# Heading? \\*bold\\* and \\`code\\` \\<b\\>x\\</b\\>"),
        ("1. first", "1\\. first"),
        ("- item | cell", "\\- item \\| cell"),
        ("![img](http://x.example/a.png)", "!\\[img\\](http://x.example/a.png)"),
    ],
)
def test_markdown_escapes_only_what_could_start_markup(text: str, escaped: str) -> None:
    assert md_escape(text) == escaped
    html = MarkdownIt("commonmark").render(f"- {md_escape(text)}")
    assert "<a " not in html
    assert "<img" not in html
    assert "<b>" not in html
    assert "<h1" not in html


def test_word_export_opens_and_holds_the_claims_and_evidence(reported, login) -> None:  # type: ignore[no-untyped-def]
    workspace, run, ada, _vic, _eve = reported
    response = login(ada).get(_export(workspace, run, "docx"))
    assert response.status_code == 200
    document = WordDocument(io.BytesIO(response.content))
    assert document.core_properties.author == workspace.name  # not python-docx's template's "python-docx"
    assert document.core_properties.title == "Answer: Who sponsors Halyard?"
    paragraphs = [p.text for p in document.paragraphs]
    assert any(text.startswith("Dana Okonkwo sponsors") and text.endswith("[1]") for text in paragraphs)
    assert "Evidence" in paragraphs
    assert document.tables[0].rows[1].cells[1].text == QUOTE


def test_pdf_export_has_pages_and_its_text_holds_the_claims_and_evidence(reported, login) -> None:  # type: ignore[no-untyped-def]
    workspace, run, ada, _vic, _eve = reported
    response = login(ada).get(_export(workspace, run, "pdf"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) >= 1
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)
    assert "Dana Okonkwo sponsors [Project](http://evil.example) Halyard since 2024. [1]" in text
    assert "Removed by the citation check" in text
    assert "Evidence" in text
    assert "Press release (press.txt)" in text


def test_pdf_export_keeps_text_beyond_latin_1_and_an_icp_checks_verdicts() -> None:
    citation = Citation(chunk_id="c#0", doc_id="c", quote="Халворикс employs 120 people — “quoted”.", source="c.txt")
    report = Report(
        template="icp",
        writer="rules",
        subject="Халворикс",
        sources=(Source(doc_id="c", title="Профиль", source="c.txt"),),
        criteria=(
            CriterionResult(name="Size", verdict="match", reason="120 employees", citations=(citation,)),
            CriterionResult(name="Culture", verdict="unknown", reason="not decided offline"),
        ),
        fit_score=1.0,
        coverage=0.5,
    )
    reader = PdfReader(io.BytesIO(pdf(report, heading="Run 1: Маркет")))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)
    assert "Run 1: Маркет" in text
    assert "Size: Match. 120 employees [1]" in text
    assert "Culture: Unknown. not decided offline" in text
    assert "Fit 100% over the decided criteria; coverage 50% (1 of 2)." in text
    assert "Халворикс employs 120 people — “quoted”." in text


def test_json_export_is_the_stored_report(reported, login) -> None:  # type: ignore[no-untyped-def]
    workspace, run, ada, _vic, _eve = reported
    body = json.loads(login(ada).get(_export(workspace, run, "json")).content)
    assert body["summary"][0]["citations"][0]["chunk_id"] == "press#0"
    assert body["removed"][0]["reason"] == "its quotes do not contain 'initech'"


def test_exports_are_for_members_only_and_need_a_report(reported, login, client) -> None:  # type: ignore[no-untyped-def]
    workspace, run, ada, _vic, eve = reported
    assert login(eve).get(_export(workspace, run, "md")).status_code == 404
    assert client.get(_export(workspace, run, "md")).status_code == 302  # to the login page
    assert login(ada).get(_export(workspace, run, "odt")).status_code == 404
    other = Run.objects.create(workspace=workspace, question="q")
    assert login(ada).get(_export(workspace, other, "md")).status_code == 404


def test_the_viewer_marks_the_cited_quote_in_its_chunk(reported, login) -> None:  # type: ignore[no-untyped-def]
    workspace, run, _ada, vic, _eve = reported
    url = reverse("run_document", kwargs={"slug": workspace.slug, "run_id": run.pk, "doc_id": "press"})
    response = login(vic).get(url, {"highlight": "press#0", "quote": "dana okonkwo sponsors project http evil"})
    page = lxml.html.fromstring(response.content)
    marks = page.xpath("//mark[@class='quote']")
    assert [mark.text_content() for mark in marks] == ["Dana Okonkwo sponsors [Project](http://evil"]
    assert "Quoted by the answer" in page.xpath("//blockquote[@class='cited-quote']")[0].text_content()
    plain = login(vic).get(url, {"highlight": "press#0", "quote": "not in the text at all"})
    assert b'class="quote"' not in plain.content


def test_a_reports_summary_has_its_heading_above_the_sections() -> None:
    claim = Claim(text="Halyard raised EUR 12 million.", citations=(Citation(chunk_id="p#0", doc_id="p", quote="q"),))
    report = Report(
        template="competitor",
        writer="extractive",
        subject="Halyard",
        summary=(claim,),
        sections=(Section(facet="news", title="News", claims=(claim,)),),
    )
    text = markdown(report, heading="Competitor report: Halyard")
    assert text.index("## Executive summary") < text.index("- Halyard raised EUR 12 million.") < text.index("## News")
