"""ICP checks and prospect briefs end to end: the run searches one rollout per criterion or facet, the report
is judged or written from the run's own corpora, stored and recorded; bad criteria are refused clearly."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from research.models import RunEvent, RunTemplate
from research.reporting.kinds import run_facets
from research.reporting.selectors import report_of
from research.runs import selectors
from research.runs.execution import run_execute
from research.runs.live.fragments import part, state_context
from research.runs.live.state import run_state
from research.workspaces.services import workspace_icp_set
from research.writing.company import PROSPECT_FACETS
from tests.research.reporting.test_competitor_runs import MARKET
from tests.research.runs.conftest import ingest

pytestmark = pytest.mark.django_db(transaction=True)

THIS_YEAR = datetime.date.today().year
PROFILE = {
    **MARKET,
    "profile.txt": b"Halvorix employs about 120 people. Halvorix is headquartered in Lyon, France.",
    "news.txt": f"In March {THIS_YEAR}, Halvorix appointed Mara Lind as chief technology officer.".encode(),
    "rival-profile.txt": b"Stellique employs 4,000 people and is headquartered in Boston.",
}
CRITERIA = [
    {"name": "Size", "description": "Between 50 and 500 employees", "weight": 2},
    {"name": "EU", "description": "Headquartered in the EU"},
    {"name": "Culture", "description": "Has a friendly culture"},
]


@pytest.fixture
def profiles(owner):  # type: ignore[no-untyped-def]
    return ingest(owner, "Profiles", PROFILE)


def test_an_icp_check_judges_each_criterion_with_its_quote(owner, profiles, start_run) -> None:  # type: ignore[no-untyped-def]
    workspace_icp_set(
        actor=owner, text="Between 50 and 500 employees | 2\nHeadquartered in the EU\nHas a friendly culture"
    )
    run = start_run([profiles], question="", template=RunTemplate.ICP, company="Halvorix")
    assert [(c["description"], c["weight"]) for c in run.options["criteria"]] == [
        (c["description"], float(c.get("weight", 1))) for c in CRITERIA
    ]
    assert [f.title for f in run_facets(run)] == [
        "Between 50 and 500 employees",
        "Headquartered in the EU",
        "Has a friendly culture",
    ]
    assert run_execute(run_id=run.pk) == "finished"
    report = report_of(run)
    assert report is not None
    assert report.template == "icp"
    verdicts = {item.description: item for item in report.criteria}
    size = verdicts["Between 50 and 500 employees"]
    assert size.verdict == "match"
    assert "120" in size.citations[0].quote
    assert size.citations[0].source == "profile.txt"
    assert verdicts["Headquartered in the EU"].verdict == "match"
    assert verdicts["Has a friendly culture"].verdict == "unknown"
    assert not verdicts["Has a friendly culture"].citations
    assert report.fit_score == pytest.approx(1.0)
    assert report.coverage == pytest.approx(2 / 3)
    state = run_state(selectors.run_events_all(run_id=run.pk))
    html = part("answer", **state_context(state))
    assert "Fit 100%" in html
    assert "coverage 67%" in html
    assert 'data-verdict="unknown"' in html


def test_the_icp_is_snapshotted_when_the_check_starts(owner, profiles, start_run) -> None:  # type: ignore[no-untyped-def]
    workspace_icp_set(actor=owner, text="Between 50 and 500 employees")
    run = start_run([profiles], question="", template=RunTemplate.ICP, company="Halvorix")
    workspace_icp_set(actor=owner, text="Runs on Kubernetes")
    assert [f.title for f in run_facets(run)] == ["Between 50 and 500 employees"]


def test_an_icp_check_needs_a_profile(owner, profiles, start_run) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError) as raised:
        start_run([profiles], question="", template=RunTemplate.ICP, company="Halvorix")
    assert "Define the workspace's ideal customer profile first" in raised.value.message_dict["template"][0]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("Between 50 and 500 employees | heavy", "line 1: the weight after '|' must be a number, not 'heavy'"),
        ("Runs on Kubernetes | 0", "the weight must be a number above 0"),
        ("\n".join(f"criterion {i}" for i in range(13)), "at most 12 criteria"),
    ],
)
def test_a_bad_profile_is_refused_line_by_line(owner, text, error) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError) as raised:
        workspace_icp_set(actor=owner, text=text)
    assert error in raised.value.message_dict["criteria"][0]
    owner.workspace.refresh_from_db()
    assert owner.workspace.icp == []


def test_a_prospect_brief_leads_with_dated_openings(profiles, start_run) -> None:  # type: ignore[no-untyped-def]
    run = start_run([profiles], question="", template=RunTemplate.PROSPECT, company="Halvorix")
    assert run.question == "Prospect brief on Halvorix"
    assert len(run_facets(run)) == len(PROSPECT_FACETS)
    assert run_execute(run_id=run.pk) == "finished"
    report = report_of(run)
    assert report is not None
    assert report.template == "prospect"
    sections = {section.facet: section for section in report.sections}
    assert "Mara Lind" in " ".join(claim.text for claim in sections["executives"].claims)
    shown = [claim for section in report.sections for claim in section.claims]
    assert all("Stellique" not in claim.text for claim in shown)
    started = RunEvent.objects.get(run=run, type="run_started").payload
    assert started["labels"][1] == "Executive hires"
