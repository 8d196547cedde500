"""Reading a batch: its rows with their runs' status and verdicts, sorted as the table asks; its progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404

from research.models import TERMINAL_RUN_STATUSES, IcpBatch, Membership, Run, Workspace
from research.workspaces.access import readable_runs

SORTS = ("line", "company", "status", "fit", "coverage", "matches")


@dataclass(frozen=True)
class BatchRowView:
    line: int
    company: str
    domain: str
    notes: str
    run: Run | None
    status: str
    fit: float | None  # 0-1 over the decided criteria
    coverage: float | None
    verdicts: tuple[str, ...]  # per criterion: match, no_match, unknown ("" before the check is written)

    @property
    def matches(self) -> int:
        return sum(1 for verdict in self.verdicts if verdict == "match")

    @property
    def done(self) -> bool:
        return self.status in TERMINAL_RUN_STATUSES


def batch_list(*, workspace: Workspace) -> list[IcpBatch]:
    return list(IcpBatch.objects.filter(workspace=workspace).order_by("-created_at", "-id")[:20])


def batch_get(*, membership: Membership, batch_id: int) -> IcpBatch:
    """A batch of the member's workspace; 404 otherwise."""
    batch = IcpBatch.objects.filter(workspace=membership.workspace, pk=batch_id).first()
    if batch is None:
        raise Http404("No such batch")
    return batch


def _verdicts(body: dict[str, Any], count: int) -> tuple[str, ...]:
    found = [str(item.get("verdict", "")) for item in body.get("criteria", []) if isinstance(item, dict)]
    return tuple(found + [""] * (count - len(found)))[:count]


def batch_rows(
    *, membership: Membership, batch: IcpBatch, sort: str = "line", descending: bool = False
) -> list[BatchRowView]:
    """The batch's rows, each with its run's status and its check's fit, coverage and verdicts; a check saved
    since in an investigation the member may not read shows as "private", with nothing of its verdicts."""
    count = len(batch.criteria)
    views: list[BatchRowView] = []
    rows = list(batch.rows.select_related("run", "run__report").order_by("line"))
    readable = set(
        Run.objects.filter(readable_runs(membership), pk__in=[row.run_id for row in rows]).values_list("pk", flat=True)
    )
    for row in rows:
        run = row.run if row.run_id in readable else None
        if row.run_id is not None and run is None:
            views.append(
                BatchRowView(
                    line=row.line,
                    company=row.company,
                    domain=row.domain,
                    notes="",
                    run=None,
                    status="private",
                    fit=None,
                    coverage=None,
                    verdicts=("",) * count,
                )
            )
            continue
        report = getattr(run, "report", None) if run is not None else None
        body = report.body if report is not None and isinstance(report.body, dict) else {}
        views.append(
            BatchRowView(
                line=row.line,
                company=row.company,
                domain=row.domain,
                notes=row.notes,
                run=run,
                status=run.status if run is not None else "deleted",
                fit=body.get("fit_score"),
                coverage=body.get("coverage"),
                verdicts=_verdicts(body, count),
            )
        )
    return sorted(views, key=_sort_key(sort if sort in SORTS else "line"), reverse=descending)


def _sort_key(sort: str) -> Any:
    def key(view: BatchRowView) -> tuple[Any, ...]:
        match sort:
            case "company":
                return (view.company.casefold(), view.line)
            case "status":
                return (view.status, view.line)
            case "fit":  # an undecided fit sorts below every decided one
                return (view.fit is not None, view.fit or 0.0, -view.line)
            case "coverage":
                return (view.coverage is not None, view.coverage or 0.0, -view.line)
            case "matches":
                return (view.matches, -view.line)
            case _:
                return (view.line,)

    return key


def batch_progress(rows: list[BatchRowView]) -> tuple[int, int]:
    """(checks ended, checks in all)."""
    return sum(1 for row in rows if row.done or row.run is None), len(rows)
