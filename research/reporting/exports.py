"""Exports of a stored report, built from the report itself (never from rendered HTML): Markdown, Word, PDF, JSON.

Citations become numbered notes (one per citation, in reading order) and an evidence appendix lists each
quote with its document and date. Document text is untrusted: in Markdown, quotes and claims are escaped so
a document cannot inject links, images or HTML into the export.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.http import HttpResponse
from docx import Document as WordDocument
from docx.document import Document as DocxDocument
from docx.shared import Pt
from fpdf import FPDF
from fpdf.enums import XPos, YPos

from research.protocol.report import Citation, Claim, Report, to_dict
from research.reporting.kinds import KINDS
from research.reporting.presenting import VERDICTS

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def _title(report: Report) -> str:
    """What the export calls what was written: "Answer", "Competitor report", ... (the run's kind says)."""
    kind = KINDS.get(report.template)
    return kind.export_title if kind else "Report"


def as_dict(report: Report) -> dict[str, Any]:
    """The report in the JSON shape of ``manage.py report ... --json``: the stored fields, with the report's
    company (a report) or question (an answer) named as such."""
    body = to_dict(report)
    about_company = report.template not in KINDS or KINDS[report.template].about_company
    body["company" if about_company else "question"] = report.subject
    return body


def as_json(report: Report) -> str:
    return json.dumps(as_dict(report), indent=2, ensure_ascii=False)


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
    disagree = {claim.text: group.about for s in report.sections for group in s.conflicts for claim in group.claims}
    for claim in report.summary:
        yield None, claim
    for section in report.sections:
        if not section.claims:
            yield section.title, None
        for claim in section.claims:
            about = disagree.get(claim.text)
            marked = f"{claim.text} (sources disagree on “{about}”: see the other figure)" if about else claim.text
            yield section.title, dataclasses.replace(claim, text=marked)
    for item in report.criteria:  # an ICP check: each criterion's verdict, cited like a claim
        verdict = VERDICTS.get(item.verdict, item.verdict)
        yield "Criteria", Claim(text=f"{item.name}: {verdict}. {item.reason}", citations=item.citations)


def fit_line(report: Report) -> str | None:
    """An ICP check's fit score and coverage in words (None for other reports)."""
    if not report.criteria:
        return None
    decided = sum(1 for item in report.criteria if item.verdict != "unknown")
    fit = "not known" if report.fit_score is None else f"{report.fit_score:.0%}"
    covered = f"{report.coverage or 0:.0%} ({decided} of {len(report.criteria)})"
    return f"Fit {fit} over the decided criteria; coverage {covered}."


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
        f"*{_title(report)}: {md_escape(report.subject)}*",
    ]
    lines += ["", f"Writer: {report.writer}. Every claim below is backed by a quote found in the cited document.", ""]
    lines += [f"> {md_escape(note)}" for note in report.notes]
    if (fit := fit_line(report)) is not None:
        lines += ["", f"**{md_escape(fit)}**"]
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
    document.add_paragraph().add_run(f"{_title(report)}: {report.subject}").italic = True
    document.add_paragraph(f"Writer: {report.writer}. Every claim is backed by a quote found in the cited document.")
    for note in report.notes:
        document.add_paragraph(note, style="Intense Quote")
    if (fit := fit_line(report)) is not None:
        document.add_paragraph().add_run(fit).bold = True
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


FONTS = Path(__file__).parent / "fonts"  # DejaVu Sans (fonts/LICENSE): Latin, Greek and Cyrillic; no CJK


class _Pdf(FPDF):
    """A4 pages in DejaVu Sans with page numbers; ``paragraph`` writes wrapped text."""

    def __init__(self) -> None:
        super().__init__(format="A4")
        self.set_auto_page_break(auto=True, margin=16)
        self.add_font("DejaVu", "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font("DejaVu", "B", str(FONTS / "DejaVuSans-Bold.ttf"))

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font("DejaVu", size=8)
        self.cell(0, 8, f"Page {self.page_no()}/{{nb}}", align="C")

    def paragraph(self, text: str, *, size: float = 10, bold: bool = False, gap: float = 1.5) -> None:
        self.set_font("DejaVu", "B" if bold else "", size)
        self.multi_cell(self.epw, size * 0.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.ln(gap)

    def heading(self, text: str) -> None:
        self.paragraph(text, size=12, bold=True, gap=1)


def pdf(report: Report, *, heading: str) -> bytes:
    """The report as PDF (fpdf2 with the bundled DejaVu font): claims with note numbers, the notes, removed
    claims and the evidence, as in the Markdown and Word exports."""
    document = _Pdf()
    document.set_title(heading)
    document.add_page()
    document.paragraph(heading, size=16, bold=True)
    document.paragraph(f"{_title(report)}: {report.subject}", size=11)
    document.paragraph(
        f"Writer: {report.writer}. Every claim is backed by a quote found in the cited document.", size=9
    )
    for note in report.notes:
        document.paragraph(note, size=9)
    if (fit := fit_line(report)) is not None:
        document.paragraph(fit, bold=True)
    _pdf_claims(document, report)
    _pdf_evidence(document, report)
    return bytes(document.output())


def _pdf_claims(document: _Pdf, report: Report) -> None:
    numbers = iter(notes(report))
    current: str | None = None
    for section, claim in claim_blocks(report):
        if section != current and section is not None:
            document.heading(section)
            current = section
        if claim is None:
            document.paragraph("No evidence found in the searched corpora.", size=9)
            continue
        markers = "".join(f"[{next(numbers).number}]" for _ in claim.citations)
        document.paragraph(f"\u2022 {claim.text} {markers}" + (" (possibly stale)" if claim.stale else ""))


def _pdf_evidence(document: _Pdf, report: Report) -> None:
    if report.removed:
        document.heading("Removed by the citation check")
        for item in report.removed:
            document.paragraph(f"\u2022 {item.text} \u2014 {item.reason}", size=9)
    all_notes = notes(report)
    if not all_notes:
        return
    document.heading("Evidence")
    document.set_font("DejaVu", "", 8)
    with document.table(col_widths=(8, 62, 45, 20), text_align="LEFT", first_row_as_headings=True) as table:
        table.row(["#", "Quote", "Document", "Date"])
        for note in all_notes:
            source = f"{note.title} ({note.citation.source})"
            table.row([str(note.number), note.citation.quote, source, (note.date or "")[:10]])


DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
MEDIA_TYPES = {
    "md": "text/markdown; charset=utf-8",
    "docx": DOCX,
    "pdf": "application/pdf",
    "json": "application/json; charset=utf-8",
}


def export(report: Report, fmt: str, *, heading: str) -> bytes:
    """``report`` as a file of format ``fmt`` (a key of ``MEDIA_TYPES``)."""
    if fmt == "md":
        return markdown(report, heading=heading).encode()
    if fmt == "docx":
        return word(report, heading=heading)
    if fmt == "pdf":
        return pdf(report, heading=heading)
    if fmt == "json":
        return as_json(report).encode()
    raise ValueError(f"unknown export format {fmt!r}")


def export_response(report: Report, fmt: str, *, run_id: int, workspace_name: str, internal: bool) -> HttpResponse:
    """The download of a run's report as ``fmt`` (the page's and the API's): headed with the run and workspace,
    named ``run-<id>-report[-with-internal].<fmt>``."""
    heading = f"Run {run_id}: {workspace_name}"
    response = HttpResponse(export(report, fmt, heading=heading), content_type=MEDIA_TYPES[fmt])
    suffix = "-with-internal" if internal else ""
    response["Content-Disposition"] = f'attachment; filename="run-{run_id}-report{suffix}.{fmt}"'
    return response
