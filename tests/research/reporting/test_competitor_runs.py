"""A competitor report run end to end: one rollout per facet, each facet written from its own rollout's
documents, claims about the company only, stored, recorded and shown with sections."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from research.models import Report, RunEvent, RunTemplate
from research.protocol.events import from_dict
from research.reporting.kinds import run_facets
from research.reporting.selectors import report_of
from research.runs import selectors
from research.runs.execution import run_execute
from research.runs.live.fragments import part, state_context
from research.runs.live.state import run_state
from research.writing.company import COMPETITOR_FACETS as FACETS
from tests.research.runs.conftest import ingest

pytestmark = pytest.mark.django_db(transaction=True)

MARKET = {
    "pricing.txt": b"Halvorix charges 40 dollars per seat each month for its Team plan. "
    b"The Enterprise plan of Halvorix has a minimum of 50 seats.",
    "funding.txt": b"Halvorix raised 30 million dollars in a Series B round led by Northwind Ventures.",
    "rival.txt": b"Stellique Data charges 55 dollars per seat each month. Stellique raised 12 million dollars.",
    "launch.txt": b"Halvorix launched Halyard Search, a product for legal teams, in March 2026.",
}


@pytest.fixture
def market(owner):  # type: ignore[no-untyped-def]
    return ingest(owner, "Competitors", MARKET)


def test_a_competitor_report_has_a_section_per_facet_from_its_own_rollout(market, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([market], question="", template=RunTemplate.COMPETITOR, company="Halvorix", aspects=["EU data"])
    assert run.question == "Competitor report on Halvorix (also: EU data)"
    assert run.rollouts == 1
    assert run.subject == "Halvorix"
    facets = run_facets(run)
    assert len(facets) == len(FACETS) + 1
    assert facets[-1].title == "EU data"
    assert run_execute(run_id=run.pk) == "finished"
    started = RunEvent.objects.get(run=run, type="run_started").payload
    assert started["rollouts"] == len(facets)
    assert started["labels"][:2] == ["Products and launches", "Pricing"]
    calls = [e.payload for e in RunEvent.objects.filter(run=run, type="tool_called")]
    searches = [c for c in calls if c["tool"] == "search_corpus"]
    assert searches
    # a facet is about its company: its opening searches and a second page of them, no hop to the names it found
    assert {c["turn"] for c in searches} == {1, 2}
    assert all("Northwind" not in c["query"] and "Stellique" not in c["query"] for c in searches)
    report = report_of(run)
    assert report is not None
    assert report.template == "competitor"
    assert report.subject == "Halvorix"
    sections = {section.facet: section for section in report.sections}
    assert list(sections) == [facet.key for facet in facets]
    said = {key: " ".join(claim.text for claim in section.claims) for key, section in sections.items()}
    assert "40 dollars" in said["pricing"]
    assert "Series B" not in said["pricing"]
    assert "Series B" in said["funding"]
    assert "40 dollars" not in said["funding"]
    assert "Halyard Search" in said["products"]
    assert "dollars" not in said["products"]
    shown = [claim for section in report.sections for claim in section.claims] + list(report.summary)
    assert shown
    assert all("Stellique" not in claim.text for claim in shown)
    assert any(section.not_found for section in report.sections)  # nothing in the corpus about leadership
    assert report.summary
    assert all(any(c in s.claims for s in report.sections) for c in report.summary)
    assert Report.objects.get(run=run).template == "competitor"
    written = RunEvent.objects.get(run=run, type="report_written")
    assert from_dict(written.payload).report == report


def test_the_page_shows_the_facets_and_the_report_sections(market, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([market], question="", template=RunTemplate.COMPETITOR, company="Halvorix")
    run_execute(run_id=run.pk)
    state = run_state(selectors.run_events_all(run_id=run.pk))
    assert [r.heading for r in state.rollouts or []][:2] == ["Products and launches", "Pricing"]
    assert state.answer.is_report
    assert state.answer.status == "written"
    html = part("answer", **state_context(state))
    assert "Report: Halvorix" in html
    assert "<h3>Pricing</h3>" in html
    assert "Executive summary" in html
    assert "No evidence found in the searched corpora." in html
    rollouts = part("rollouts", **state_context(state))
    assert "Products and launches" in rollouts
    assert "Rollout 1" not in rollouts


@pytest.mark.parametrize(
    ("company", "error"),
    [("", "Name the company the report is about."), ("x" * 201, "Keep the company's name within 200 characters.")],
)
def test_a_report_needs_a_company(market, start_run, company, error) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError) as raised:
        start_run([market], question="", template=RunTemplate.COMPETITOR, company=company)
    assert raised.value.message_dict == {"company": [error]}


def test_a_free_question_still_needs_its_question(market, start_run) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError) as raised:
        start_run([market], question="  ", company="Halvorix")
    assert raised.value.message_dict == {"question": ["Ask a question."]}


def test_two_sources_that_disagree_on_a_figure_are_shown_together(owner, start_run) -> None:  # type: ignore[no-untyped-def]
    corpus = ingest(
        owner,
        "Disagreeing",
        {
            "site.txt": b"Halvorix serves more than 1,200 customers across Europe.",
            "analyst.txt": b"Analyst note. By our count Halvorix has around 1,050 paying customers in Europe.",
        },
    )
    run = start_run([corpus], question="", template=RunTemplate.COMPETITOR, company="Halvorix")
    assert run_execute(run_id=run.pk) == "finished"
    report = report_of(run)
    assert report is not None
    conflicts = [conflict for section in report.sections for conflict in section.conflicts]
    assert [c.about for c in conflicts] == ["customers"]
    assert {citation.source for claim in conflicts[0].claims for citation in claim.citations} == {
        "site.txt",
        "analyst.txt",
    }
    state = run_state(selectors.run_events_all(run_id=run.pk))
    html = part("answer", **state_context(state))
    assert "<strong>Sources disagree</strong> on “customers”" in html
    assert html.count('class="conflict"') == 1
