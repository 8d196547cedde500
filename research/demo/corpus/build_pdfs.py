"""Build the demo corpus PDFs from their Markdown-like sources.

Usage (from the repository root)::

    .venv/bin/pip install fpdf2==2.8.9
    .venv/bin/python research/demo/corpus/build_pdfs.py

Every ``pdf_sources/<name>.md`` becomes ``pdf/<name>.pdf``. The output is deterministic: the
creation date comes from the source's front matter, only fpdf2's core fonts are used and the text
must be Latin-1. The source format is a small subset of Markdown::

    ---
    title: Document title (PDF metadata)
    author: Author (PDF metadata)
    subject: One line (PDF metadata)
    date: 2026-04-08
    banner: Text printed in small capitals above the first heading
    ---
    # Heading 1
    ## Heading 2
    A paragraph; consecutive lines are joined. **Bold** works inside text.
    - a bullet
    | a table | header row first |
    | --- | --- |
    | cells | separated by pipes |
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF  # type: ignore[import-not-found,import-untyped,unused-ignore]

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "pdf_sources"
OUTPUT = HERE / "pdf"
FONT = "Helvetica"
META_KEYS = {"title", "author", "subject", "date", "banner"}


class SourceError(ValueError):
    """A PDF source that does not follow the format above."""


def parse_source(path: Path) -> tuple[dict[str, str], list[str]]:
    """Split a source into its front matter and body lines."""
    text = path.read_text(encoding="utf-8")
    try:
        text.encode("latin-1")
    except UnicodeEncodeError as exc:
        bad = text[exc.start : exc.end]
        raise SourceError(f"{path.name}: non-Latin-1 character {bad!r} at offset {exc.start}") from exc
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise SourceError(f"{path.name}: missing front matter")
    meta: dict[str, str] = {}
    end = 1
    while end < len(lines) and lines[end].strip() != "---":
        key, sep, value = lines[end].partition(":")
        if not sep or key.strip() not in META_KEYS:
            raise SourceError(f"{path.name}: bad front matter line {lines[end]!r}")
        meta[key.strip()] = value.strip()
        end += 1
    if end == len(lines):
        raise SourceError(f"{path.name}: unterminated front matter")
    missing = {"title", "author", "date"} - meta.keys()
    if missing:
        raise SourceError(f"{path.name}: front matter lacks {sorted(missing)}")
    return meta, lines[end + 1 :]


def split_row(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def is_separator(line: str) -> bool:
    return all(set(cell) <= set("-: ") and cell for cell in split_row(line))


class Renderer:
    """Lays out the body lines of one source on an A4 page, block by block."""

    def __init__(self, meta: dict[str, str]) -> None:
        created = datetime.strptime(meta["date"], "%Y-%m-%d").replace(hour=9, tzinfo=UTC)
        pdf = FPDF(format="A4")
        pdf.set_creation_date(created)
        pdf.set_title(meta["title"])
        pdf.set_author(meta["author"])
        pdf.set_subject(meta.get("subject", meta["title"]))
        pdf.set_creator("research/demo/corpus/build_pdfs.py")
        pdf.set_producer("fpdf2")
        pdf.set_margins(18, 18, 18)
        pdf.set_auto_page_break(auto=True, margin=18)
        pdf.add_page()
        self.pdf = pdf
        self.width: float = pdf.epw
        self.paragraph: list[str] = []
        self.table: list[list[str]] = []
        if "banner" in meta:
            pdf.set_font(FONT, "B", 8)
            pdf.set_text_color(110, 110, 110)
            pdf.multi_cell(self.width, 4, meta["banner"].upper(), new_x="LMARGIN", new_y="NEXT")
            pdf.set_text_color(0, 0, 0)
            pdf.ln(3)

    def flush_paragraph(self) -> None:
        if self.paragraph:
            self.pdf.set_font(FONT, "", 10)
            text = " ".join(self.paragraph)
            self.pdf.multi_cell(self.width, 5, text, markdown=True, new_x="LMARGIN", new_y="NEXT")
            self.pdf.ln(2)
            self.paragraph.clear()

    def flush_table(self) -> None:
        if self.table:
            self.pdf.set_font(FONT, "", 8.5)
            with self.pdf.table(line_height=4.5, first_row_as_headings=True) as grid:
                for cells in self.table:
                    row = grid.row()
                    for cell in cells:
                        row.cell(cell)
            self.pdf.ln(3)
            self.table.clear()

    def heading(self, text: str, size: float, height: float) -> None:
        self.flush_paragraph()
        self.pdf.set_font(FONT, "B", size)
        self.pdf.multi_cell(self.width, height, text.strip(), new_x="LMARGIN", new_y="NEXT")
        self.pdf.ln(1.5)

    def bullet(self, text: str) -> None:
        self.flush_paragraph()
        self.pdf.set_font(FONT, "", 10)
        self.pdf.set_x(self.pdf.l_margin + 4)
        self.pdf.multi_cell(self.width - 4, 5, "- " + text.strip(), markdown=True, new_x="LMARGIN", new_y="NEXT")
        self.pdf.ln(0.5)

    def line(self, raw: str) -> None:
        line = raw.rstrip()
        if line.startswith("|"):
            self.flush_paragraph()
            if not is_separator(line):
                self.table.append(split_row(line))
            return
        self.flush_table()
        if not line.strip():
            self.flush_paragraph()
        elif line.startswith("# "):
            self.heading(line[2:], 15, 7)
        elif line.startswith("## "):
            self.heading(line[3:], 11.5, 6)
        elif line.startswith("- "):
            self.bullet(line[2:])
        else:
            self.paragraph.append(line.strip())

    def finish(self) -> bytes:
        self.flush_paragraph()
        self.flush_table()
        return bytes(self.pdf.output())


def render(meta: dict[str, str], body: list[str]) -> bytes:
    renderer = Renderer(meta)
    for raw in body:
        renderer.line(raw)
    return renderer.finish()


def main() -> int:
    sources = sorted(SOURCES.glob("*.md"))
    if not sources:
        print(f"error: no sources in {SOURCES}", file=sys.stderr)
        return 1
    OUTPUT.mkdir(exist_ok=True)
    for source in sources:
        try:
            meta, body = parse_source(source)
        except SourceError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        target = OUTPUT / (source.stem + ".pdf")
        data = render(meta, body)
        target.write_bytes(data)
        print(f"{target.relative_to(HERE)}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
