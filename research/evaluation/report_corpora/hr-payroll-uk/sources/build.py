"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: /work/main/.venv/bin/python build.py
"""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import docx
from fpdf import FPDF

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"


def blocks(markdown: str) -> list[tuple[str, object]]:
    """(kind, content) from a small Markdown subset: headings, paragraphs, list items and pipe tables."""
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
        elif line.startswith("- "):
            out.append(("item", line[2:]))
        else:
            out.append(("p", line))
    if table:
        out.append(("table", table))
    return out


def build_pdf(source: Path, target: Path, title: str, author: str, when: dt.datetime) -> None:
    pdf = FPDF(format="A4")
    pdf.set_creation_date(when)
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
            rows = list(content)  # type: ignore[arg-type]
            col = width / len(rows[0])
            for number, row in enumerate(rows):
                pdf.set_font("Helvetica", "B" if number == 0 else "", 9)
                for cell in row:
                    pdf.cell(col, 7, cell, border=1)
                pdf.ln(7)
            pdf.ln(2)
        elif kind == "item":
            pdf.set_font("Helvetica", "", 10.5)
            pdf.multi_cell(width, 5.5, "- " + str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        else:
            pdf.set_font("Helvetica", "", 10.5)
            pdf.multi_cell(width, 5.5, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    pdf.output(str(target))



def fix_zip_times(path: Path, when: tuple[int, int, int, int, int, int]) -> None:
    """python-docx stamps each zip member with the clock time; rewrite them with a fixed time so the file is reproducible."""
    with zipfile.ZipFile(path) as source:
        members = [(info, source.read(info.filename)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in members:
            fixed = zipfile.ZipInfo(info.filename, date_time=when)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = info.external_attr
            target.writestr(fixed, data)

def build_docx(source: Path, target: Path, title: str, author: str, when: dt.datetime) -> None:
    document = docx.Document()
    document.core_properties.title = title
    document.core_properties.author = author
    document.core_properties.created = when.replace(tzinfo=None)
    document.core_properties.modified = when.replace(tzinfo=None)
    document.core_properties.last_modified_by = author
    document.core_properties.revision = 1
    for kind, content in blocks(source.read_text(encoding="utf-8")):
        if kind in {"h1", "h2", "h3"}:
            document.add_heading(str(content), level=int(kind[1]))
        elif kind == "table":
            rows = list(content)  # type: ignore[arg-type]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        elif kind == "item":
            document.add_paragraph(str(content), style="List Bullet")
        else:
            document.add_paragraph(str(content))
    document.save(str(target))
    fix_zip_times(target, (2026, 10, 1, 9, 0, 0))


def main() -> None:
    build_pdf(
        HERE / "press-release-shiftmarrow-2026-05-12.md",
        OUT / "press-release-thistlewick-shiftmarrow-2026-05-12.pdf",
        "Thistlewick acquires Shiftmarrow",
        "Thistlewick Software Ltd",
        dt.datetime(2026, 5, 12, 7, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_docx(
        HERE / "analyst-note-brindle-oakes-2026-10.md",
        OUT / "analyst-note-brindle-oakes-thistlewick-2026-10.docx",
        "Vendor Snapshot: Thistlewick",
        "Brindle & Oakes Research",
        dt.datetime(2026, 10, 20, 9, 0, 0, tzinfo=dt.timezone.utc),
    )


if __name__ == "__main__":
    main()
