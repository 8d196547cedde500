"""The timeline of an investigation, read from the stored reports of its finished runs."""

from __future__ import annotations

from research.edits.selectors import edit_rows, report_edited
from research.models import Document, Investigation, ReportEdit, Run, RunStatus
from research.models import Report as StoredReport
from research.protocol.report import Report, citations_of, report_from_dict
from research.reporting.internal import outward
from research.writing.timeline import RunReport, Timeline, timeline

RUNS_READ = 60  # the newest finished runs a timeline reads (a weekly schedule's year and more)


def reports_for(runs: list[Run], edits: list[ReportEdit], *, internal: bool = True) -> dict[int, Report]:
    """The one place the runs' reports are read for a timeline (one query for all, one more for the internal marks):
    with the investigation's ``edits`` applied (a struck claim is no event), then, unless ``internal``, without what
    only our own notes back."""
    bodies = StoredReport.objects.filter(run__in=runs).values_list("run_id", "body")
    by_run = {run.pk: run for run in runs}
    found: dict[int, Report] = {}
    for run_id, body in bodies:
        try:
            edited = report_edited(by_run[run_id], report_from_dict(body), edits)
        except (KeyError, TypeError, ValueError):
            continue
        if edited is not None:
            found[run_id] = edited
    if internal or not found:
        return found
    cited = {c.doc_id for report in found.values() for c in citations_of(report)}
    corpora = Run.corpora.through.objects.filter(run__in=runs).values_list("corpus_id", flat=True)
    marked = set(
        Document.objects.filter(corpus__in=corpora, doc_id__in=cited, internal=True).values_list("doc_id", flat=True)
    )
    return {
        run_id: outward(report, marked | {s.doc_id for s in report.sources if s.internal}).report
        for run_id, report in found.items()
    }


def finished_runs(*, investigation: Investigation) -> list[Run]:
    """The investigation's newest finished runs (at most ``RUNS_READ``), oldest first."""
    runs = investigation.runs.filter(status=RunStatus.FINISHED).order_by("-created_at", "-id")[:RUNS_READ]
    return list(reversed(runs))


def investigation_timeline(*, investigation: Investigation, internal: bool = True) -> Timeline:
    """``investigation`` must come from ``investigations.selectors.investigation_get`` (what the member may read)."""
    runs = finished_runs(investigation=investigation)
    found = reports_for(runs, edit_rows(investigation_id=investigation.pk), internal=internal)
    return timeline(
        RunReport(run_id=run.pk, seen=(run.finished_at or run.created_at).date(), report=found[run.pk])
        for run in runs
        if run.pk in found
    )
