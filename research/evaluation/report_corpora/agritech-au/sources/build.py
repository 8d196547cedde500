"""Builds this corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run: /work/main/.venv/bin/python research/evaluation/report_corpora/agritech-au/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import docx
from fpdf import FPDF

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
FIXED = dt.datetime(2026, 10, 14, 9, 0, 0, tzinfo=dt.timezone.utc)


def blocks(markdown: str) -> list[tuple[str, object]]:
    """(kind, content) for headings, paragraphs, list items and tables of a small Markdown subset."""
    out: list[tuple[str, object]] = []
    table: list[list[str]] = []
    for raw in markdown.splitlines():
        line = raw.rstrip()
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):
                table.append(cells)
            continue
        if table:
            out.append(("table", table))
            table = []
        if not line:
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out.append((f"h{level}", line.lstrip("#").strip()))
        elif line[:2] in {"- ", "* "} or (line[:1].isdigit() and line[1:3] == ". "):
            out.append(("item", line))
        else:
            out.append(("p", line))
    if table:
        out.append(("table", table))
    return out


def build_pdf(source: Path, target: Path, title: str, author: str) -> None:
    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED)
    pdf.set_title(title)
    pdf.set_author(author)
    pdf.set_auto_page_break(True, margin=18)
    pdf.add_page()
    width = pdf.w - pdf.l_margin - pdf.r_margin
    sizes = {"h1": 16, "h2": 13, "h3": 11}
    for kind, content in blocks(source.read_text(encoding="utf-8")):
        if kind in sizes:
            pdf.set_font("Helvetica", "B", sizes[kind])
            pdf.multi_cell(width, 7, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif kind == "table":
            pdf.set_font("Helvetica", "", 10)
            with pdf.table(col_widths=(3, 2), text_align="LEFT") as table:
                for cells in content:  # type: ignore[union-attr]
                    row = table.row()
                    for cell in cells:
                        row.cell(cell)
            pdf.ln(2)
        else:
            pdf.set_font("Helvetica", "", 10)
            text = str(content)
            if kind == "item":
                text = "- " + text[2:] if text[:2] in {"- ", "* "} else text
            pdf.multi_cell(width, 5, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
    pdf.output(str(target))


def build_docx(source: Path, target: Path, title: str, author: str) -> None:
    document = docx.Document()
    properties = document.core_properties
    properties.title = title
    properties.author = author
    properties.created = FIXED.replace(tzinfo=None)
    properties.modified = FIXED.replace(tzinfo=None)
    properties.last_modified_by = author
    properties.revision = 1
    for kind, content in blocks(source.read_text(encoding="utf-8")):
        if kind.startswith("h"):
            document.add_heading(str(content), level=int(kind[1]))
        elif kind == "item":
            text = str(content)
            if text[:2] in {"- ", "* "}:
                document.add_paragraph(text[2:], style="List Bullet")
            else:
                document.add_paragraph(text.split(". ", 1)[1], style="List Number")
        elif kind == "table":
            rows = content  # type: ignore[assignment]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, cells in enumerate(rows):
                for c, cell in enumerate(cells):
                    table.cell(r, c).text = cell
        else:
            document.add_paragraph(str(content))
    document.save(str(target))
    _fix_zip_times(target)


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
    build_pdf(
        HERE / "saltbush-quellbrae-note-2026-10.md",
        OUT / "saltbush-research-quellbrae-note-2026-10.pdf",
        "Saltbush Research - Quellbrae AgSystems company note",
        "Saltbush Research",
    )
    build_docx(
        HERE / "deal-notes-tarcowie-2026-09.md",
        OUT / "deal-notes-tarcowie-grain-2026-09.docx",
        "Tarcowie Grain Co-operative - deal notes",
        "Mei Lin Tarrant",
    )
