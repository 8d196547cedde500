"""Internal sources stay internal: a share link and an export leave out what only our own notes back, unless
whoever shares includes them on purpose."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from research.api.tokens import token_create
from research.investigations import services as investigations
from research.models import Chunk, Document, Run, RunStatus
from research.protocol.report import Citation, Claim, CriterionResult, Report, Section, Source
from research.reporting.internal import INTERNAL_REASON, outward
from research.reporting.services import report_save
from research.sharing import services
from tests.research.investigations.conftest import Team, claim, finished_run

pytestmark = pytest.mark.django_db

PUBLIC = "Halvorix opened a Berlin office."
BUDGET = "Glenmorrow's budget for Halvorix is GBP 80,000 and Dana Fox signs."
BOTH = "Halvorix charges GBP 6 per employee per month."


def _documents(team: Team) -> None:
    press = Document.objects.create(
        corpus=team.corpus, doc_id="press", title="Press release", source_name="press.md", kind="text", content_hash="p"
    )
    Chunk.objects.create(document=press, index=0, chunk_id="press#0", text=f"{PUBLIC} {BOTH}")
    notes = Document.objects.create(
        corpus=team.corpus,
        doc_id="notes",
        title="Deal notes: Glenmorrow",
        source_name="deal-notes-glenmorrow.txt",
        kind="text",
        content_hash="n",
        internal=True,
    )
    Chunk.objects.create(document=notes, index=0, chunk_id="notes#0", text=f"{BUDGET} {BOTH}")


def _reported(team: Team) -> Run:
    _documents(team)
    run = finished_run(team, claims=[PUBLIC])
    both = Claim(
        text=BOTH,
        citations=(*claim(BOTH).citations, *claim(BOTH, doc="notes").citations),
    )
    report = Report(
        template="competitor",
        writer="extractive",
        subject="Halvorix",
        summary=(claim(BUDGET, doc="notes"),),
        sections=(Section(facet="news", title="News", claims=(claim(PUBLIC), claim(BUDGET, doc="notes"), both)),),
        sources=(
            Source(doc_id="press", title="Press release", source="press.md"),
            Source(doc_id="notes", title="Deal notes: Glenmorrow", source="deal-notes-glenmorrow.txt", internal=True),
        ),
    )
    report_save(run, report)
    ranked = [{"doc_id": "press", "title": "Press release"}, {"doc_id": "notes", "title": "Deal notes: Glenmorrow"}]
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED, result=ranked)
    run.refresh_from_db()
    return run


def _link(team: Team, run: Run, *, include_internal: bool = False) -> str:
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    made = services.share_link_create(
        actor=team.author, investigation=investigation, run=run, include_internal=include_internal
    )
    return f"/s/{made.token}/"


def test_a_share_link_leaves_out_what_only_our_notes_back(team: Team) -> None:
    run = _reported(team)
    url = _link(team, run)
    visitor = Client()
    html = visitor.get(url).content.decode()
    assert PUBLIC in html
    assert BOTH in html  # the press release backs it too: it stays, with its public citation only
    assert "80,000" not in html
    assert "Dana Fox" not in html
    assert "Deal notes" not in html  # neither in the sources nor in the ranked documents
    assert "1 claim backed only by our internal notes left out of this copy." in html
    chips = re.findall(r'href="(c/[^"]+)"', html)
    assert chips
    assert all("notes" not in chip for chip in chips)
    assert visitor.get(f"{url}c/notes%230/").status_code == 404  # its passage does not open either


def test_a_share_link_made_to_include_internal_sources_shows_them(team: Team) -> None:
    run = _reported(team)
    html = Client().get(_link(team, run, include_internal=True)).content.decode()
    assert "80,000" in html
    assert "left out of this copy" not in html


def test_the_share_form_offers_internal_sources_unticked(team: Team, login) -> None:  # type: ignore[no-untyped-def]
    run = _reported(team)
    investigation = investigations.investigation_create(actor=team.author, run=run, title="Halvorix watch")
    page = login(team.author.user).get(
        reverse("investigation_page", kwargs={"slug": team.workspace.slug, "investigation_id": investigation.pk})
    )
    html = page.content.decode()
    assert 'name="include_internal"' in html
    assert re.search(r'<input type="checkbox" name="include_internal"(?![^>]*checked)', html)
    assert "Our own deal notes, battlecards and CRM rows" in html


def test_an_export_leaves_internal_sources_out_unless_asked(team: Team, login) -> None:  # type: ignore[no-untyped-def]
    run = _reported(team)
    client = login(team.viewer.user)
    url = reverse("report_export", kwargs={"slug": team.workspace.slug, "run_id": run.pk, "fmt": "json"})
    default = json.loads(client.get(url).content)
    said = json.dumps(default)
    assert PUBLIC in said
    assert "80,000" not in said
    assert "deal-notes" not in said
    markdown = client.get(url.replace("report.json", "report.md")).content.decode()
    assert "80,000" not in markdown
    assert "Halvorix opened a Berlin office" in markdown
    internal = client.get(url + "?internal=1")
    assert "80,000" in internal.content.decode()
    assert internal["Content-Disposition"].endswith('-with-internal.json"')


def test_a_document_marked_internal_after_the_report_is_left_out_too(team: Team) -> None:
    _documents(team)
    run = finished_run(team, claims=[PUBLIC])  # its sources say nothing of internal
    Document.objects.filter(doc_id="press").update(internal=True)
    html = Client().get(_link(team, run)).content.decode()
    assert PUBLIC not in html


def test_an_icp_verdict_decided_only_from_our_notes_keeps_its_verdict_without_the_quote() -> None:
    quote = Citation(chunk_id="crm#3", doc_id="crm", quote="Employees: 145", source="crm-export.csv")
    report = Report(
        template="icp",
        writer="rules",
        subject="Halvorix",
        criteria=(CriterionResult(name="Size", verdict="match", reason="145 employees", citations=(quote,)),),
        sources=(Source(doc_id="crm", title="CRM export", source="crm-export.csv", internal=True),),
    )
    shown = outward(report, {"crm"})
    (verdict,) = shown.report.criteria
    assert (verdict.verdict, verdict.reason, verdict.citations) == ("match", INTERNAL_REASON, ())
    assert shown.report.sources == ()
    assert shown.left_out == 1
    assert outward(report, set()).report == report


def test_the_apis_report_and_its_files_leave_internal_sources_out_unless_asked(team: Team) -> None:
    run = _reported(team)
    key = token_create(user=team.viewer.user, workspace_slug=team.workspace.slug, name="crm", scopes=["reports:read"])
    client = Client(HTTP_AUTHORIZATION=f"Bearer {key.key}")
    default = client.get(f"/api/v1/runs/{run.pk}/report")
    assert PUBLIC in default.content.decode()
    assert "80,000" not in default.content.decode()
    assert "80,000" in client.get(f"/api/v1/runs/{run.pk}/report?internal=true").content.decode()
    markdown = client.get(f"/api/v1/runs/{run.pk}/report/md")
    assert markdown["Content-Type"].startswith("text/markdown")
    assert markdown["Content-Disposition"] == f'attachment; filename="run-{run.pk}-report.md"'
    assert "Halvorix opened a Berlin office" in markdown.content.decode()
    assert "80,000" not in markdown.content.decode()
    assert client.get(f"/api/v1/runs/{run.pk}/report/pdf").content.startswith(b"%PDF")
    assert client.get(f"/api/v1/runs/{run.pk}/report/docx").content.startswith(b"PK")  # a zip: Word's format
    with_internal = client.get(f"/api/v1/runs/{run.pk}/report/json?internal=true")
    assert "80,000" in with_internal.content.decode()
    assert with_internal["Content-Disposition"].endswith('-with-internal.json"')
    assert client.get(f"/api/v1/runs/{run.pk}/report/html").status_code == 422
