"""`manage.py report competitor`: a stored run executed in the command's process, its report as JSON in the
shape the issue names, and clear errors for a wrong workspace, corpus or company."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from research.models import Run, RunStatus
from tests.research.reporting.test_competitor_runs import MARKET
from tests.research.runs.conftest import ingest

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_command_writes_the_report_as_json(owner, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    ingest(owner, "Competitors", MARKET)
    target = tmp_path / "report.json"
    call_command(
        "report", "competitor", company="Halvorix", workspace=owner.workspace.slug, corpus=["competitors"], json=target
    )
    body = json.loads(target.read_text())
    assert set(body) >= {"template", "company", "writer", "summary", "sections", "removed", "sources"}
    assert (body["template"], body["company"], body["writer"]) == ("competitor", "Halvorix", "extractive")
    assert len(body["sections"]) == 9
    pricing = next(section for section in body["sections"] if section["facet"] == "pricing")
    assert pricing["not_found"] is False
    claim = pricing["claims"][0]
    assert set(claim) >= {"text", "date", "citations"}
    assert set(claim["citations"][0]) >= {"chunk_id", "doc_id", "source", "quote"}
    assert claim["citations"][0]["source"] == "pricing.txt"
    assert {source["source"] for source in body["sources"]} <= set(MARKET)
    run = Run.objects.get(pk=body["run"])
    assert run.status == RunStatus.FINISHED
    assert "9 sections" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"workspace": "nowhere"}, "no workspace 'nowhere'"),
        ({"corpus": ["missing"]}, "no corpus named 'missing'"),
        ({"company": "  "}, "company: Name the company the report is about."),
    ],
)
def test_the_command_explains_bad_input(owner, tmp_path: Path, options, message) -> None:  # type: ignore[no-untyped-def]
    ingest(owner, "Competitors", {"a.txt": b"Halvorix charges 40 dollars per seat."})
    arguments = {"company": "Halvorix", "workspace": owner.workspace.slug, "corpus": ["Competitors"], **options}
    with pytest.raises(CommandError, match=message):
        call_command("report", "competitor", json=tmp_path / "r.json", **arguments)
    assert not Run.objects.exists()


def test_the_icp_command_takes_criteria_from_a_file(owner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ingest(owner, "Profiles", {"profile.txt": b"Halvorix employs about 120 people. Halvorix is based in Toronto."})
    criteria = tmp_path / "criteria.json"
    criteria.write_text(
        json.dumps(
            [
                {"name": "Size", "description": "Between 50 and 500 employees", "weight": 2},
                {"name": "EU", "description": "Headquartered in the EU"},
                {"name": "Culture", "description": "Has a friendly culture"},
            ]
        )
    )
    target = tmp_path / "icp.json"
    arguments = {"company": "Halvorix", "workspace": owner.workspace.slug, "corpus": ["Profiles"]}
    call_command("report", "icp", criteria=criteria, json=target, **arguments)
    body = json.loads(target.read_text())
    assert body["template"] == "icp"
    assert [(c["name"], c["verdict"]) for c in body["criteria"]] == [
        ("Size", "match"),
        ("EU", "no_match"),
        ("Culture", "unknown"),
    ]
    assert set(body["criteria"][0]) >= {"name", "verdict", "reason", "citations"}
    assert body["fit_score"] == pytest.approx(2 / 3)
    assert body["coverage"] == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ('{"name": "x"}', "expected a JSON list"),
        ('[{"name": "Size", "weight": "heavy"}]', "criterion 1 \\(Size\\): the weight must be a number"),
    ],
)
def test_the_icp_command_explains_bad_criteria(owner, tmp_path: Path, content, message) -> None:  # type: ignore[no-untyped-def]
    ingest(owner, "Profiles", {"a.txt": b"Halvorix employs 120 people."})
    criteria = tmp_path / "criteria.json"
    criteria.write_text(content)
    arguments = {"company": "Halvorix", "workspace": owner.workspace.slug, "corpus": ["Profiles"]}
    with pytest.raises(CommandError, match=message):
        call_command("report", "icp", criteria=criteria, json=tmp_path / "r.json", **arguments)
    assert not Run.objects.exists()
