"""`context1 search --web` and `manage.py report ... --web`: the web's searches and fetches printed with their
addresses and outcomes (fetched, cached, refused with the reason); web pages cited in the report's JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from research.runs import cli
from tests.research.runs.conftest import ingest
from tests.research.web_sources.conftest import Owner
from tests.support.web_site import Site

pytestmark = pytest.mark.django_db(transaction=True)
QUESTION = "Where did Halvorix open its first European office?"


def test_the_cli_searches_the_web_and_prints_each_fetch(owner: Owner, web_settings: Site, capsys) -> None:  # type: ignore[no-untyped-def]
    ingest(owner.membership, "CRM notes", {"globex.txt": b"Globex raised its Team plan to 59 dollars in May."})
    code = cli.main(["search", QUESTION, "--corpus", "CRM notes", "--rollouts", "2", "--web"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"web_search: {QUESTION}" in out
    assert f"-> fetched: {web_settings.url('/news/berlin.html')}" in out
    assert "Halvorix opens a Berlin office" in out.split("Supporting documents:")[1]


def test_the_cli_says_when_web_sources_are_not_configured(owner: Owner, settings, capsys) -> None:  # type: ignore[no-untyped-def]
    settings.WEB_SEARCH_PROVIDER = "none"
    ingest(owner.membership, "CRM notes", {"a.txt": b"Anything."})
    assert cli.main(["search", QUESTION, "--corpus", "CRM notes", "--web"]) == 2
    assert "web sources are not configured on this server" in capsys.readouterr().err


def test_a_competitor_report_with_the_web_cites_fetched_pages(owner: Owner, web_settings: Site, tmp_path: Path) -> None:
    ingest(owner.membership, "CRM notes", {"globex.txt": b"Globex raised its Team plan to 59 dollars in May."})
    target = tmp_path / "report.json"
    arguments = ["competitor", "--company", "Halvorix", "--workspace", owner.workspace.slug, "--corpus", "CRM notes"]
    call_command("report", *arguments, "--web", "--max-turns", "4", "--json", str(target))
    report = json.loads(target.read_text())
    sources = {source["source"] for source in report["sources"]}
    assert any(source.startswith(web_settings.url("/")) and "(fetched 20" in source for source in sources)


def test_report_web_needs_a_provider(owner: Owner, settings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings.WEB_SEARCH_PROVIDER = "none"
    ingest(owner.membership, "CRM notes", {"a.txt": b"Anything."})
    arguments = ["competitor", "--company", "Halvorix", "--workspace", owner.workspace.slug, "--corpus", "CRM notes"]
    with pytest.raises(CommandError, match="Web sources are not configured"):
        call_command("report", *arguments, "--web", "--json", str(tmp_path / "r.json"))
