"""Builds the email-security-us corpus's PDF (analyst brief) and DOCX (partner QBR) from the Markdown beside this
script. Deterministic: fixed creation dates, no timestamps from the clock.

Run: /work/main/.venv/bin/python build.py
"""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import docx
from fpdf import FPDF

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent / "documents"


def parse(markdown: str) -> list[tuple[str, object]]:
    """Headings, paragraphs, bullet or numbered items, and pipe tables (separator rows dropped)."""
    items: list[tuple[str, object]] = []
    rows: list[list[str]] = []
    for raw in markdown.splitlines():
        line = raw.strip()
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
            continue
        if rows:
            items.append(("table", rows))
            rows = []
        if not line:
            continue
        if line.startswith("#"):
            items.append((f"h{len(line) - len(line.lstrip('#'))}", line.lstrip("#").strip()))
        elif line.startswith("- ") or (line[0].isdigit() and line[1:3] == ". "):
            items.append(("item", line))
        else:
            items.append(("p", line))
    if rows:
        items.append(("table", rows))
    return items


class Brief(FPDF):
    def header(self) -> None:
        self.set_font("Times", "I", 8)
        self.cell(0, 5, "Thornquist Advisory - licensed to Bellwarden Technologies LLC - not for redistribution", align="R")
        self.ln(8)

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font("Times", "I", 8)
        self.cell(0, 5, f"Page {self.page_no()}", align="C")


def build_pdf(source: Path, target: Path) -> None:
    pdf = Brief(format="Letter")
    pdf.set_creation_date(dt.datetime(2026, 9, 29, 14, 0, 0, tzinfo=dt.timezone.utc))
    pdf.set_title("Vendor Brief: Wyvernhook, Inc.")
    pdf.set_author("Thornquist Advisory")
    pdf.set_auto_page_break(True, margin=16)
    pdf.add_page()
    width = pdf.w - pdf.l_margin - pdf.r_margin
    for kind, content in parse(source.read_text(encoding="utf-8")):
        if kind == "h1":
            pdf.set_font("Times", "B", 17)
            pdf.multi_cell(width, 8, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif kind == "h2":
            pdf.set_font("Times", "B", 12.5)
            pdf.multi_cell(width, 7, str(content).upper(), new_x="LMARGIN", new_y="NEXT")
        elif kind == "table":
            rows = list(content)  # type: ignore[arg-type]
            widths = [width * 0.35, width * 0.25, width * 0.40]
            for number, row in enumerate(rows):
                pdf.set_font("Times", "B" if number == 0 else "", 10)
                for w, cell in zip(widths, row):
                    pdf.cell(w, 6.5, cell, border="B")
                pdf.ln(6.5)
            pdf.ln(3)
        elif kind == "item":
            pdf.set_font("Times", "", 11)
            pdf.multi_cell(width, 5.5, "* " + str(content)[2:], new_x="LMARGIN", new_y="NEXT")
        else:
            pdf.set_font("Times", "", 11)
            pdf.multi_cell(width, 5.5, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1.5)
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

def build_docx(source: Path, target: Path) -> None:
    when = dt.datetime(2026, 10, 13, 16, 30, 0)
    document = docx.Document()
    props = document.core_properties
    props.title = "Bellwarden x Wyvernhook Q3 2026 Partner Business Review"
    props.author = "Priya Venkataraman-Stoll"
    props.last_modified_by = "Priya Venkataraman-Stoll"
    props.created = when
    props.modified = when
    props.revision = 3
    for kind, content in parse(source.read_text(encoding="utf-8")):
        if kind in {"h1", "h2", "h3"}:
            document.add_heading(str(content), level=int(kind[1]))
        elif kind == "table":
            rows = list(content)  # type: ignore[arg-type]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Light Grid Accent 1"
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        elif kind == "item":
            text = str(content)
            numbered = text[0].isdigit()
            document.add_paragraph(text[3:] if numbered else text[2:], style="List Number" if numbered else "List Bullet")
        else:
            document.add_paragraph(str(content))
    document.save(str(target))
    fix_zip_times(target, (2026, 10, 1, 9, 0, 0))


if __name__ == "__main__":
    build_pdf(HERE / "analyst-brief-thornquist-2026q3.md", DOCS / "analyst-brief-thornquist-wyvernhook-2026q3.pdf")
    build_docx(HERE / "partner-qbr-2026q3.md", DOCS / "partner-qbr-bellwarden-wyvernhook-2026q3.docx")
