"""A batch as CSV: one line per company, its check's status, fit, coverage and each criterion's verdict."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from research.batches.selectors import BatchRowView
from research.models import IcpBatch

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> str:
    """A cell a spreadsheet will not run as a formula (company names come from uploaded files)."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_START) else text


def batch_csv(batch: IcpBatch, rows: Sequence[BatchRowView], *, run_url: str) -> str:
    """``run_url`` has ``{id}`` where the run's id goes."""
    names = [str(item.get("name", "")) for item in batch.criteria]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    header = ["line", "company", "domain", "notes", "status", "fit_score", "coverage", *names, "report"]
    writer.writerow([cell(value) for value in header])  # a criterion's name is a member's text too
    for row in rows:
        fit = "" if row.fit is None else f"{row.fit:.3f}"
        coverage = "" if row.coverage is None else f"{row.coverage:.3f}"
        link = run_url.format(id=row.run.pk) if row.run is not None else ""
        values = [row.line, row.company, row.domain, row.notes, row.status, fit, coverage, *row.verdicts, link]
        writer.writerow([cell(value) for value in values])
    for item in batch.rejected:
        reason = f"rejected: {item.get('reason')}"
        writer.writerow([cell(item.get("line")), cell(item.get("text")), "", "", cell(reason)])
    return buffer.getvalue()
