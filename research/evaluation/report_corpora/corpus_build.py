"""Builds a report corpus's PDF and Word documents from Markdown, deterministically: each corpus's
``sources/build.py`` names its files, titles, authors and dates and calls these."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import docx
from fpdf import FPDF


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


def build_pdf(
    source: Path, target: Path, title: str, author: str, when: dt.datetime, encoding: str | None = None
) -> None:
    """The Markdown ``source`` as an A4 PDF; ``encoding`` of the core fonts when the text needs it (French:
    "windows-1252" for the euro sign, curly quotes and the oe ligature)."""
    pdf = FPDF(format="A4")
    if encoding:
        pdf.core_fonts_encoding = encoding
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


def build_docx(source: Path, target: Path, title: str, author: str, when: dt.datetime) -> None:
    """The Markdown ``source`` as a Word document dated ``when``."""
    document = docx.Document()
    document.core_properties.title = title
    document.core_properties.author = author
    document.core_properties.created = when.replace(tzinfo=None)
    document.core_properties.modified = when.replace(tzinfo=None)
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
    buffer = io.BytesIO()
    document.save(buffer)
    target.write_bytes(_zip_dated(buffer.getvalue(), when))


def _zip_dated(data: bytes, when: dt.datetime) -> bytes:
    """The ZIP archive with every entry dated ``when`` (python-docx stamps each with the time it saves), so the same
    source builds the same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=when.timetuple()[:6])
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16  # rw------- as python-docx writes it
            new.writestr(entry, old.read(info.filename))
    return out.getvalue()
