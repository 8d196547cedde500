"""Builds this corpus's two PDFs and one DOCX from the Markdown beside this script (deterministic).

Run: /work/main/.venv/bin/python build.py   (from any directory)
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import docx
from docx.shared import Pt
from fpdf import FPDF

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"


def blocks(markdown: str) -> list[tuple[str, object]]:
    """(kind, content) for a small Markdown subset: #/##/### headings, paragraphs, pipe tables."""
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
        else:
            out.append(("p", line))
    if table:
        out.append(("table", table))
    return out


class Sheet(FPDF):
    """A branded page: a thin header rule with the company name and a page-number footer."""

    brand = ""

    def header(self) -> None:
        self.set_font("Times", "I", 9)
        self.cell(0, 6, self.brand, align="R", new_x="LMARGIN", new_y="NEXT")
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())
        self.ln(4)

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font("Times", "", 8)
        self.cell(0, 6, f"Page {self.page_no()}", align="C")


def build_pdf(source: Path, target: Path, *, title: str, author: str, brand: str, when: dt.datetime,
              widths: tuple[float, ...] | None = None) -> None:
    pdf = Sheet(format="Letter")
    pdf.brand = brand
    pdf.set_creation_date(when)
    pdf.set_title(title)
    pdf.set_author(author)
    pdf.set_auto_page_break(True, margin=20)
    pdf.add_page()
    width = pdf.w - pdf.l_margin - pdf.r_margin
    for kind, content in blocks(source.read_text(encoding="utf-8")):
        if kind == "h1":
            pdf.set_font("Times", "B", 18)
            pdf.multi_cell(width, 8, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif kind in {"h2", "h3"}:
            pdf.set_font("Times", "B", 13)
            pdf.multi_cell(width, 7, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif kind == "table":
            rows = list(content)  # type: ignore[arg-type]
            shares = widths if widths and len(widths) == len(rows[0]) else tuple(1 / len(rows[0]) for _ in rows[0])
            for number, row in enumerate(rows):
                pdf.set_font("Times", "B" if number == 0 else "", 10.5)
                for share, cell in zip(shares, row, strict=True):
                    pdf.cell(width * share, 7, cell, border="B" if number == 0 else 0)
                pdf.ln(7)
            pdf.ln(3)
        else:
            pdf.set_font("Times", "", 11.5)
            pdf.multi_cell(width, 5.8, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    pdf.output(str(target))


def build_docx(source: Path, target: Path, *, title: str, author: str, when: dt.datetime) -> None:
    document = docx.Document()
    document.styles["Normal"].font.name = "Georgia"
    document.styles["Normal"].font.size = Pt(10.5)
    props = document.core_properties
    props.title, props.author, props.last_modified_by = title, author, author
    props.created = props.modified = when
    props.revision = 3
    for kind, content in blocks(source.read_text(encoding="utf-8")):
        if kind == "h1":
            document.add_heading(str(content), level=1)
        elif kind in {"h2", "h3"}:
            document.add_heading(str(content), level=2)
        elif kind == "table":
            rows = list(content)  # type: ignore[arg-type]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Light List Accent 1"
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        else:
            document.add_paragraph(str(content))
    document.save(str(target))


if __name__ == "__main__":
    build_pdf(
        HERE / "price-sheet-2026.md", OUT / "brindlecourt-price-sheet-2026.pdf",
        title="Brindlecourt 2026 Price Sheet", author="Brindlecourt Legal Technologies Inc.",
        brand="Brindlecourt | brindlecourt.example", when=dt.datetime(2026, 2, 20, 15, 0, tzinfo=dt.timezone.utc),
        widths=(0.3, 0.33, 0.37),
    )
    build_pdf(
        HERE / "case-study-okaro-mining.md", OUT / "brindlecourt-case-study-okaro-mining.pdf",
        title="Customer story: Okaro Mining Corp.", author="Brindlecourt Legal Technologies Inc.",
        brand="Brindlecourt customer stories", when=dt.datetime(2026, 9, 8, 14, 0, tzinfo=dt.timezone.utc),
    )
    build_docx(
        HERE / "kestrelmark-brief-2026-07.md", OUT / "kestrelmark-brief-brindlecourt-2026-07.docx",
        title="Kestrelmark Advisory - Vendor Brief: Brindlecourt", author="Farida Whitcombe-Ansah",
        when=dt.datetime(2026, 7, 14, 11, 30),
    )
