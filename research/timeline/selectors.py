"""The timeline of an investigation, read from the stored reports of its finished runs."""

from __future__ import annotations

from research.edits.selectors import edit_rows, report_edited
from research.models import Investigation, ReportEdit, Run, RunStatus
from research.protocol.report import Report
from research.reporting.selectors import report_of, report_shown
from research.writing.timeline import RunReport, Timeline, timeline

RUNS_READ = 60  # the newest finished runs a timeline reads (a weekly schedule's year and more)


def report_for(run: Run, edits: list[ReportEdit], *, internal: bool = True) -> Report | None:
    """The one place a run's report is read for its timeline: as stored, or as it may leave the workspace
    (``internal=False``: without what only our own notes back), with the investigation's ``edits`` applied (a
    struck claim is no event)."""
    return report_edited(run, report_of(run) if internal else report_shown(run), edits)


def finished_runs(*, investigation: Investigation) -> list[Run]:
    """The investigation's newest finished runs (at most ``RUNS_READ``), oldest first."""
    runs = investigation.runs.filter(status=RunStatus.FINISHED).order_by("-created_at", "-id")[:RUNS_READ]
    return list(reversed(runs))


def investigation_timeline(*, investigation: Investigation, internal: bool = True) -> Timeline:
    """``investigation`` must come from ``investigations.selectors.investigation_get`` (what the member may read)."""
    reports = []
    edits = edit_rows(investigation_id=investigation.pk)
    for run in finished_runs(investigation=investigation):
        report = report_for(run, edits, internal=internal)
        if report is not None:
            reports.append(RunReport(run_id=run.pk, seen=(run.finished_at or run.created_at).date(), report=report))
    return timeline(reports)
