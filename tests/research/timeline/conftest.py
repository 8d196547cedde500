"""The investigations' team (tests/research/investigations/conftest.py) and runs that end with a given report."""

from __future__ import annotations

from research.models import Run, RunStatus
from research.protocol.report import Report, Section
from research.reporting.services import report_save
from research.runs import services as runs
from tests.research.investigations.conftest import Team, _no_queue, claim, team

__all__ = ["_no_queue", "finished_with", "team"]


def finished_with(team: Team, sections: dict[str, list[str]]) -> Run:
    """A finished competitor run on Halvorix whose stored report has a section per facet of ``sections``."""
    run = runs.run_start(
        actor=team.author, question="", corpora=[team.corpus], template="competitor", company="Halvorix"
    )
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED, result=[])
    report = Report(
        template="competitor",
        writer="extractive",
        subject="Halvorix",
        sections=tuple(
            Section(facet=facet, title=facet.title(), claims=tuple(claim(text, doc=facet) for text in texts))
            for facet, texts in sections.items()
        ),
    )
    report_save(run, report)
    run.refresh_from_db()
    return run
