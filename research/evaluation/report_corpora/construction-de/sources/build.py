"""Builds the construction-de corpus's PDF (price list) and DOCX (press release) from the Markdown beside this script.

Deterministic: fixed creation dates, no randomness.
Run: /work/main/.venv/bin/python research/evaluation/report_corpora/construction-de/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import docx
from docx.shared import Pt
from fpdf import FPDF

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent / "documents"


def parse(markdown: str) -> list[tuple[str, object]]:
    items: list[tuple[str, object]] = []
    rows: list[list[str]] = []
    for line in markdown.splitlines():
        line = line.rstrip()
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(c and set(c) <= set("-:") for c in cells):  # skip the |---|---| separator line
                rows.append(cells)
            continue
        if rows:
            items.append(("table", rows))
            rows = []
        if not line:
            continue
        if line.startswith("#"):
            items.append((f"h{len(line) - len(line.lstrip('#'))}", line.lstrip("#").strip()))
        else:
            items.append(("p", line))
    if rows:
        items.append(("table", rows))
    return items


def price_list_pdf() -> None:
    source = HERE / "wendelgrund-price-list-2026-2.md"
    pdf = FPDF(orientation="L", format="A4")
    pdf.set_creation_date(dt.datetime(2026, 8, 20, 10, 0, tzinfo=dt.timezone.utc))
    pdf.set_title("Wendelgrund price list 2026/2")
    pdf.set_author("Wendelgrund Software GmbH")
    pdf.set_auto_page_break(True, margin=15)
    pdf.add_page()
    width = pdf.w - pdf.l_margin - pdf.r_margin
    for kind, content in parse(source.read_text(encoding="utf-8")):
        if kind == "h1":
            pdf.set_font("Times", "B", 20)
            pdf.multi_cell(width, 10, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif kind == "table":
            rows = content  # type: ignore[assignment]
            pdf.set_font("Times", "", 11)
            with pdf.table(col_widths=(5, 3, 3, 3), text_align=("LEFT", "CENTER", "CENTER", "CENTER")) as table:
                for cells in rows:
                    row = table.row()
                    for cell in cells:
                        row.cell(cell)
            pdf.ln(4)
        else:
            pdf.set_font("Times", "", 11)
            pdf.multi_cell(width, 6, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
    pdf.output(str(DOCS / "wendelgrund-price-list-2026-2.pdf"))


def press_release_docx() -> None:
    source = HERE / "press-release-lotrecht-2026-07-08.md"
    document = docx.Document()
    style = document.styles["Normal"]
    style.font.name = "Arial"
    style.font.size = Pt(10.5)
    props = document.core_properties
    props.title = "Wendelgrund acquires Lotrecht Scan"
    props.author = "Lene Marquardsen"
    props.last_modified_by = "Lene Marquardsen"
    props.created = dt.datetime(2026, 7, 8, 8, 0)
    props.modified = dt.datetime(2026, 7, 8, 8, 0)
    props.revision = 3
    for kind, content in parse(source.read_text(encoding="utf-8")):
        if kind.startswith("h"):
            document.add_heading(str(content), level=min(int(kind[1]), 3))
        else:
            document.add_paragraph(str(content))
    document.save(str(DOCS / "press-release-wendelgrund-lotrecht-2026-07-08.docx"))
    _fix_zip_times(DOCS / "press-release-wendelgrund-lotrecht-2026-07-08.docx")


def _fix_zip_times(path: Path) -> None:
    """Rewrites the DOCX archive with fixed entry times, so that a rebuild gives the same bytes."""
    with zipfile.ZipFile(path) as source:
        entries = [(info.filename, source.read(info.filename)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, data)


if __name__ == "__main__":
    price_list_pdf()
    press_release_docx()
