"""Builds the corpus's PDF and DOCX documents from the Markdown files next to this script (deterministic).

Run from anywhere with the project's venv: python sources/build.py
Supported Markdown: '# ' title, '## ' heading, '- ' bullet, '| a | b |' table rows, blank-line separated paragraphs.
"""

from __future__ import annotations

import sys
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import docx
from fpdf import FPDF

HERE = Path(__file__).resolve().parent
DOCUMENTS = HERE.parent / "documents"
# Markdown source -> (document written into documents/, the creation date stored in its metadata)
TARGETS = {
    "grille-tarifaire.md": ("ondacier-grille-tarifaire-2026-07.pdf", datetime(2026, 6, 1, tzinfo=timezone.utc)),
    "etude-de-cas-lainvaux.md": ("ondacier-etude-de-cas-lainvaux.pdf", datetime(2026, 2, 16, tzinfo=timezone.utc)),
    "etude-marche-tms.md": ("observatoire-lormeau-vidal-tms-2026.docx", datetime(2026, 10, 14, tzinfo=timezone.utc)),
}


def blocks(markdown: str) -> list[tuple[str, object]]:
    """(kind, content) blocks: title, heading, bullet, table (list of rows), paragraph."""
    out: list[tuple[str, object]] = []
    table: list[list[str]] = []
    for raw in markdown.splitlines():
        line = raw.strip()
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
        if line.startswith("# "):
            out.append(("title", line[2:]))
        elif line.startswith("## "):
            out.append(("heading", line[3:]))
        elif line.startswith("- "):
            out.append(("bullet", line[2:]))
        else:
            out.append(("paragraph", line))
    if table:
        out.append(("table", table))
    return out


def build_pdf(markdown: str, target: Path, created: datetime) -> None:
    pdf = FPDF(format="A4")
    pdf.set_creation_date(created)
    pdf.set_auto_page_break(auto=True, margin=18)
    pdf.add_page()
    pdf.set_margins(20, 20, 20)
    for kind, content in blocks(markdown):
        if kind == "title":
            pdf.set_font("Helvetica", "B", 16)
            pdf.multi_cell(0, 9, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
        elif kind == "heading":
            pdf.set_font("Helvetica", "B", 12)
            pdf.ln(2)
            pdf.multi_cell(0, 7, str(content), new_x="LMARGIN", new_y="NEXT")
        elif kind == "bullet":
            pdf.set_font("Helvetica", "", 10.5)
            pdf.multi_cell(0, 5.5, "- " + str(content), new_x="LMARGIN", new_y="NEXT")
        elif kind == "table":
            pdf.set_font("Helvetica", "", 10)
            with pdf.table() as table:
                for row_cells in content:  # type: ignore[union-attr]
                    row = table.row()
                    for cell in row_cells:
                        row.cell(cell)
            pdf.ln(2)
        else:
            pdf.set_font("Helvetica", "", 10.5)
            pdf.multi_cell(0, 5.5, str(content), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    pdf.output(str(target))


def build_docx(markdown: str, target: Path, created: datetime) -> None:
    document = docx.Document()
    document.core_properties.created = created.replace(tzinfo=None)
    document.core_properties.modified = created.replace(tzinfo=None)
    document.core_properties.author = ""
    for kind, content in blocks(markdown):
        if kind == "title":
            document.add_heading(str(content), level=0)
        elif kind == "heading":
            document.add_heading(str(content), level=1)
        elif kind == "bullet":
            document.add_paragraph(str(content), style="List Bullet")
        elif kind == "table":
            rows = content  # type: ignore[assignment]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Table Grid"
            for r, row_cells in enumerate(rows):
                for c, cell in enumerate(row_cells):
                    table.cell(r, c).text = cell
        else:
            document.add_paragraph(str(content))
    document.save(str(target))
    _fix_zip_times(target, created)


def _fix_zip_times(target: Path, created: datetime) -> None:
    """python-docx stamps zip entries with the current time; rewrite them with a fixed one (deterministic file)."""
    with zipfile.ZipFile(target) as archive:
        entries = [(info.filename, archive.read(info)) for info in archive.infolist()]
    stamp = (created.year, created.month, created.day, 0, 0, 0)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(zipfile.ZipInfo(name, date_time=stamp), data, compress_type=zipfile.ZIP_DEFLATED)


def main() -> int:
    for source_name, (target_name, created) in TARGETS.items():
        markdown = (HERE / source_name).read_text(encoding="utf-8")
        target = DOCUMENTS / target_name
        if target.suffix == ".pdf":
            markdown.encode("latin-1")  # core fonts: Latin-1 only
            build_pdf(markdown, target, created)
        else:
            build_docx(markdown, target, created)
        print(f"wrote {target.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
