"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: /work/main/.venv/bin/python build.py
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import docx
from fpdf import FPDF

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
FIXED = dt.datetime(2026, 10, 1, 9, 0, 0, tzinfo=dt.timezone.utc)


def blocks(markdown: str) -> list[tuple[str, object]]:
    """(kind, content): heading levels 1-3, paragraphs, list items and tables, from a small Markdown subset."""
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


def build_pdf(source: Path, target: Path, title: str, author: str, when: dt.datetime = FIXED) -> None:
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
            pdf.set_font("Helvetica", "", 10)
            rows = list(content)  # type: ignore[arg-type]
            col = width / len(rows[0])
            for number, row in enumerate(rows):
                pdf.set_font("Helvetica", "B" if number == 0 else "", 10)
                for cell in row:
                    pdf.cell(col, 7, cell, border=1)
                pdf.ln(7)
            pdf.ln(2)
        else:
            pdf.set_font("Helvetica", "", 10.5)
            pdf.multi_cell(width, 5.5, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    pdf.output(str(target))


def build_docx(source: Path, target: Path, title: str, author: str) -> None:
    document = docx.Document()
    document.core_properties.title = title
    document.core_properties.author = author
    document.core_properties.created = FIXED.replace(tzinfo=None)
    document.core_properties.modified = FIXED.replace(tzinfo=None)
    document.core_properties.last_modified_by = author
    document.core_properties.revision = 1
    for kind, content in blocks(source.read_text(encoding="utf-8")):
        if kind == "h1":
            document.add_heading(str(content), level=0)
        elif kind in {"h2", "h3"}:
            document.add_heading(str(content), level=int(kind[1]) - 1)
        elif kind == "item":
            text = str(content)
            numbered = text[:1].isdigit()
            document.add_paragraph(text.split(" ", 1)[1], style="List Number" if numbered else "List Bullet")
        elif kind == "table":
            rows = list(content)  # type: ignore[arg-type]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Table Grid"
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        else:
            document.add_paragraph(str(content))
    document.save(str(target))


if __name__ == "__main__":
    build_pdf(
        HERE / "orrestad-kuldevagt-profile-2026-q3.md",
        OUT / "orrestad-kuldevagt-profile-2026-q3.pdf",
        "Orrestad Insights vendor profile: Kuldevagt A/S",
        "Orrestad Insights",
        dt.datetime(2026, 9, 29, 7, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_pdf(
        HERE / "kuldevagt-prisliste-2025.md",
        OUT / "kuldevagt-prisliste-2025.pdf",
        "Kuldevagt Prisliste 2025",
        "Kuldevagt A/S",
        dt.datetime(2025, 1, 20, 10, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_docx(
        HERE / "deal-notes-medivarde-2026-10.md",
        OUT / "deal-notes-medivarde-2026-10.docx",
        "Deal notes: Medivarde Logistik ApS",
        "Lena Quast",
    )
