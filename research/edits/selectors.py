"""Read-side of analysts' edits: an investigation's edits, a run's report with them applied, what the page shows."""

from __future__ import annotations

from dataclasses import dataclass

from research.models import EditKind, Investigation, Membership, ReportEdit, Run
from research.protocol.report import Report
from research.reporting.internal import outward
from research.reporting.presenting import VERDICTS
from research.reporting.selectors import internal_cited, report_of
from research.workspaces import access
from research.writing.edits import Edit, apply_edits


def edit_rows(*, investigation_id: int) -> list[ReportEdit]:
    return list(ReportEdit.objects.filter(investigation_id=investigation_id).select_related("created_by"))


def _edit(row: ReportEdit) -> Edit:
    verdict = row.verdict if row.verdict in VERDICTS else "unknown"
    return Edit(
        kind=row.kind,  # type: ignore[arg-type]  # EditKind's values
        by=row.created_by.get_username() if row.created_by else "a former member",
        at=row.created_at.isoformat(),
        claim_key=row.claim_key,
        facet=row.facet,
        criterion=row.criterion,
        verdict=verdict,  # type: ignore[arg-type]
        text=row.text,
    )


def report_edited(run: Run, report: Report | None, rows: list[ReportEdit] | None = None) -> Report | None:
    """``report`` (the run's) with its investigation's edits applied; as it is for a run in no investigation."""
    if report is None or run.investigation_id is None:
        return report
    rows = edit_rows(investigation_id=run.investigation_id) if rows is None else rows
    return apply_edits(report, [_edit(row) for row in rows])


def report_shown_edited(run: Run, *, internal: bool = False) -> Report | None:
    """The run's report as it leaves the product (an export, the API, the timeline's downloads): the edits applied to
    the stored report first (a claim's key holds all its citations), then, unless ``internal``, without what only our
    own notes back (research/reporting/internal.py)."""
    edited = report_edited(run, report_of(run))
    if edited is None or internal:
        return edited
    return outward(edited, internal_cited(run, edited)).report


@dataclass(frozen=True)
class EditLine:
    """An edit as the run page lists it."""

    id: int
    kind: str
    label: str  # "Struck a claim"
    subject: str  # the claim, the section or the criterion
    text: str  # the reason or note
    by: str
    at: str


@dataclass(frozen=True)
class Editing:
    """What the run page needs to show and make edits: whether the member may, the sections a claim can be
    pinned to, the verdicts, and the investigation's edits."""

    investigation: Investigation | None
    can_edit: bool
    sections: tuple[tuple[str, str], ...]  # (facet, title)
    verdicts: tuple[tuple[str, str], ...]
    lines: tuple[EditLine, ...]


def _subject(row: ReportEdit, titles: dict[str, str]) -> str:
    if row.kind in (EditKind.STRIKE, EditKind.PIN):
        where = f" (to {titles.get(row.facet, row.facet)})" if row.kind == EditKind.PIN else ""
        return row.claim_text + where
    if row.kind == EditKind.OVERRIDE:
        return f"{row.criterion}: {VERDICTS.get(row.verdict, row.verdict)}"
    return titles.get(row.facet, row.facet) if row.facet else "the whole report"


def editing(*, membership: Membership, run: Run, report: Report | None, rows: list[ReportEdit]) -> Editing:
    investigation = run.investigation
    titles = {section.facet: section.title for section in report.sections} if report else {}
    lines = tuple(
        EditLine(
            id=row.pk,
            kind=row.kind,
            label=EditKind(row.kind).label,
            subject=_subject(row, titles),
            text=row.text,
            by=row.created_by.get_username() if row.created_by else "a former member",
            at=row.created_at.isoformat(),
        )
        for row in rows
    )
    return Editing(
        investigation=investigation,
        can_edit=investigation is not None and access.can_edit(membership=membership, investigation=investigation),
        sections=tuple(titles.items()),
        verdicts=tuple(VERDICTS.items()),
        lines=lines,
    )
