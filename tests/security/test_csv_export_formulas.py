"""Probe item 7: the ICP batch export wrote its header cells (criteria names, a member's text) as they were, so
"=HYPERLINK(...)" as a criterion's name ran in the spreadsheet of whoever opened the export."""

from __future__ import annotations

import csv
import io

from research.batches.exports import batch_csv
from research.models import IcpBatch

EVIL = '=HYPERLINK("http://evil.example","Open")'


def test_every_text_cell_of_the_export_header_and_rejected_rows_included_is_no_formula() -> None:
    batch = IcpBatch(
        criteria=[{"name": EVIL}, {"name": "+cmd|' /C calc'!A0"}, {"name": "Headquartered in the EU"}],
        rejected=[{"line": 3, "text": "@SUM(1+1)", "reason": "-no company name"}],
    )
    lines = list(csv.reader(io.StringIO(batch_csv(batch, [], run_url="/runs/{id}/"))))
    assert lines[0][7:10] == [f"'{EVIL}", "'+cmd|' /C calc'!A0", "Headquartered in the EU"]
    assert lines[1] == ["3", "'@SUM(1+1)", "", "", "rejected: -no company name"]
    cells = [value for line in lines for value in line]
    assert not any(value.startswith(("=", "+", "-", "@")) for value in cells)
