"""Exports of a stored report, built from the report itself (never from rendered HTML): Markdown and Word.

Citations become numbered notes (one per citation, in reading order) and an evidence appendix lists each
quote with its document and date. Document text is untrusted: in Markdown, quotes and claims are escaped so
a document cannot inject links, images or HTML into the export.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass

from docx import Document as WordDocument
from docx.document import Document as DocxDocument
from docx.shared import Pt

from research.protocol.report import Citation, Claim, Report

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")
TEMPLATE_TITLES = {"question": "Answer", "competitor": "Competitor report", "icp": "ICP check", "prospect": "Brief"}


def md_escape(text: str) -> str:
    """Text shown literally by a Markdown renderer (every special character backslash-escaped, lines joined)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


@dataclass(frozen=True)
class Note:
    number: int
    citation: Citation
    title: str
    date: str | None


def _titles(report: Report) -> dict[str, tuple[str, str | None]]:
    return {source.doc_id: (source.title or source.source or source.doc_id, source.date) for source in report.sources}


def claim_blocks(report: Report) -> Iterator[tuple[str | None, Claim | None]]:
    """(section title, claim) in reading order: the summary, then each section (a section with no claim
    yields ``(title, None)``)."""
    for claim in report.summary:
        yield None, claim
    for section in report.sections:
        if not section.claims:
            yield section.title, None
        for claim in section.claims:
            yield section.title, claim


def notes(report: Report) -> list[Note]:
    """One note per citation, numbered in reading order."""
    titles = _titles(report)
    found: list[Note] = []
    for _, claim in claim_blocks(report):
        for citation in claim.citations if claim else ():
            title, date = titles.get(citation.doc_id, (citation.doc_id, None))
            found.append(Note(len(found) + 1, citation, title, date))
    return found


def markdown(report: Report, *, heading: str) -> str:
    """The report as Markdown: claims with footnote markers, the footnotes, the removed claims, the evidence."""
    all_notes = iter(notes(report))
    lines = [
        f"# {md_escape(heading)}",
        "",
        f"*{TEMPLATE_TITLES.get(report.template, 'Report')}: {md_escape(report.subject)}*",
    ]
    lines += ["", f"Writer: {report.writer}. Every claim below is backed by a quote found in the cited document.", ""]
    lines += [f"> {md_escape(note)}" for note in report.notes]
    current: str | None = None
    for section, claim in claim_blocks(report):
        if section != current and section is not None:
            lines += ["", f"## {md_escape(section)}", ""]
            current = section
        if claim is None:
            lines.append("No evidence found in the searched corpora.")
            continue
        markers = "".join(f"[^{next(all_notes).number}]" for _ in claim.citations)
        stale = " *(possibly stale)*" if claim.stale else ""
        lines.append(f"- {md_escape(claim.text)}{markers}{stale}")
    lines.append("")
    for note in notes(report):
        where = md_escape(note.citation.source) + (f", {note.date[:10]}" if note.date else "")
        lines.append(f"[^{note.number}]: {md_escape(note.title)} ({where}): “{md_escape(note.citation.quote)}”")
    if report.removed:
        lines += ["", "## Removed by the citation check", ""]
        lines += [f"- {md_escape(item.text)} — {md_escape(item.reason)}" for item in report.removed]
    lines += ["", "## Evidence", "", "| # | Quote | Document | Date |", "| --- | --- | --- | --- |"]
    for note in notes(report):
        row = (str(note.number), md_escape(note.citation.quote), md_escape(note.title), (note.date or "")[:10])
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def word(report: Report, *, heading: str) -> bytes:
    """The report as a Word document (python-docx): claims with note numbers, notes, removed claims, evidence."""
    document = WordDocument()
    document.add_heading(heading, level=0)
    document.add_paragraph().add_run(
        f"{TEMPLATE_TITLES.get(report.template, 'Report')}: {report.subject}"
    ).italic = True
    document.add_paragraph(f"Writer: {report.writer}. Every claim is backed by a quote found in the cited document.")
    for note in report.notes:
        document.add_paragraph(note, style="Intense Quote")
    numbers = iter(notes(report))
    current: str | None = None
    for section, claim in claim_blocks(report):
        if section != current and section is not None:
            document.add_heading(section, level=1)
            current = section
        if claim is None:
            document.add_paragraph("No evidence found in the searched corpora.")
            continue
        paragraph = document.add_paragraph(claim.text, style="List Bullet")
        for _ in claim.citations:
            marker = paragraph.add_run(f"[{next(numbers).number}]")
            marker.font.superscript = True
        if claim.stale:
            paragraph.add_run(" (possibly stale)").italic = True
    _word_evidence(document, report)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _word_evidence(document: DocxDocument, report: Report) -> None:
    if report.removed:
        document.add_heading("Removed by the citation check", level=1)
        for item in report.removed:
            document.add_paragraph(f"{item.text} — {item.reason}", style="List Bullet")
    document.add_heading("Evidence", level=1)
    table = document.add_table(rows=1, cols=4)
    for cell, text in zip(table.rows[0].cells, ("#", "Quote", "Document", "Date"), strict=True):
        cell.text = text
    for note in notes(report):
        cells = table.add_row().cells
        values = (
            str(note.number),
            note.citation.quote,
            f"{note.title} ({note.citation.source})",
            (note.date or "")[:10],
        )
        for cell, text in zip(cells, values, strict=True):
            cell.text = text
            for run in cell.paragraphs[0].runs:
                run.font.size = Pt(9)
