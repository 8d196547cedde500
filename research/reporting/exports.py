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

# Inline: what could open emphasis, code, a link or image, HTML or a table cell anywhere in a line; at a line's
# start also what opens a heading, quote, list or rule. Periods, hyphens and parentheses elsewhere stay as written.
_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]<>|~])")
_MARKDOWN_LEADING = re.compile(r"^([#>+=-]|\d+(?=[.)](?:\s|$)))")


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
    """Text shown literally by a Markdown renderer, lines joined: the characters that could start markup escaped
    (a document cannot inject links, images, HTML or headings), "4.6" and "B2B-ready" left as they are."""
    text = _MARKDOWN_INLINE.sub(r"\\\1", " ".join(text.split()))
    return _MARKDOWN_LEADING.sub(_leading, text)


def _leading(found: re.Match[str]) -> str:
    """ "1." becomes "1\\." (an ordered list's number keeps its digits), "#" "\\#"."""
    mark = found.group(1)
    return mark + "\\" if mark.isdigit() else "\\" + mark


@dataclass(frozen=True)
class Note:
    number: int
    citation: Citation
    title: str
    date: str | None


def _titles(report: Report) -> dict[str, tuple[str, str | None]]:
    return {source.doc_id: (source.title or source.source or source.doc_id, source.date) for source in report.sources}


def claim_blocks(report: Report) -> Iterator[tuple[str | None, Claim | None]]:
    """(section title, claim) in reading order: the summary (headed "Executive summary" above a report's sections,
    untitled for a question's answer), then each section (a section with no claim yields ``(title, None)``);
    analysts' pins and overrides are said in the claim's text."""
    disagree = {claim.text: group.about for s in report.sections for group in s.conflicts for claim in group.claims}
    summary = "Executive summary" if report.sections else None
    for claim in report.summary:
        yield summary, claim
    for section in report.sections:
        if not section.claims and section.not_found:
            yield section.title, None
        elif not section.claims:
            yield section.title, Claim(text="Every claim here was struck or moved by analysts.", citations=())
        for claim in section.claims:
            about = disagree.get(claim.text)
            marked = f"{claim.text} (sources disagree on “{about}”: see the other figure)" if about else claim.text
            marked += f" (pinned to this section by {claim.pinned_by})" if claim.pinned_by else ""
            yield section.title, dataclasses.replace(claim, text=marked)
    for item in report.criteria:  # an ICP check: each criterion's verdict, cited like a claim
        verdict = VERDICTS.get(item.verdict, item.verdict)
        if item.override:
            judged = VERDICTS.get(item.override.verdict, item.override.verdict)
            verdict += f" (overridden by {item.override.by}: {item.override.note}; the judge said {judged})"
        yield "Criteria", Claim(text=f"{item.name}: {verdict}. {item.reason}", citations=item.citations)


def lists_before(report: Report) -> list[tuple[str, list[str]]]:
    """The headed lists shown above the claims: the analysts' notes ("Pricing: ... (alice, 2026-12-06)")."""
    titles = {section.facet: section.title for section in report.sections}
    notes = [
        f"{titles.get(note.facet, 'Report') if note.facet else 'Report'}: {note.text} ({note.by}, {note.at[:10]})"
        for note in report.analyst_notes
    ]
    return [("Analysts' notes", notes)] if notes else []


def lists_after(report: Report) -> list[tuple[str, list[str]]]:
    """The headed lists shown below the claims: what the citation check removed, what analysts struck."""
    removed = [f"{item.text} — {item.reason}" for item in report.removed]
    struck = [f"{item.text} (struck by {item.by}, {item.at[:10]}: {item.reason})" for item in report.struck]
    found = [("Removed by the citation check", removed), ("Struck by analysts", struck)]
    return [(title, lines) for title, lines in found if lines]


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


def _markdown_head(report: Report, *, heading: str, byline: str) -> list[str]:
    lines = [f"# {md_escape(heading)}", ""] + ([f"*{md_escape(byline)}*", ""] if byline else [])
    lines += [f"Writer: {report.writer}. Every claim below is backed by a quote found in the cited document.", ""]
    lines += [f"> {md_escape(note)}" for note in report.notes]
    if (fit := fit_line(report)) is not None:
        lines += ["", f"**{md_escape(fit)}**"]
    for title, items in lists_before(report):
        lines += ["", f"## {title}", ""] + [f"- {md_escape(item)}" for item in items]
    return lines


def markdown(report: Report, *, heading: str, byline: str = "") -> str:
    """The report as Markdown: claims with footnote markers, the footnotes, the removed claims, the evidence."""
    all_notes = iter(notes(report))
    lines = _markdown_head(report, heading=heading, byline=byline)
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
    for title, items in lists_after(report):
        lines += ["", f"## {title}", ""] + [f"- {md_escape(item)}" for item in items]
    lines += ["", "## Evidence", "", "| # | Quote | Document | Date |", "| --- | --- | --- | --- |"]
    for note in notes(report):
        row = (str(note.number), md_escape(note.citation.quote), md_escape(note.title), (note.date or "")[:10])
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def _word_head(document: DocxDocument, report: Report, *, heading: str, byline: str, author: str) -> None:
    properties = document.core_properties
    properties.author, properties.title, properties.subject = author, heading, report.subject
    properties.comments = properties.keywords = properties.last_modified_by = ""  # python-docx's template's own
    document.add_heading(heading, level=0)
    if byline:
        document.add_paragraph().add_run(byline).italic = True
    document.add_paragraph(f"Writer: {report.writer}. Every claim is backed by a quote found in the cited document.")
    for note in report.notes:
        document.add_paragraph(note, style="Intense Quote")
    if (fit := fit_line(report)) is not None:
        document.add_paragraph().add_run(fit).bold = True
    _word_lists(document, lists_before(report))


def word(report: Report, *, heading: str, byline: str = "", author: str = "Context-1 Web") -> bytes:
    """The report as a Word document (python-docx): claims with note numbers, notes, removed claims, evidence."""
    document = WordDocument()
    _word_head(document, report, heading=heading, byline=byline, author=author)
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


def _word_lists(document: DocxDocument, lists: list[tuple[str, list[str]]]) -> None:
    for title, items in lists:
        document.add_heading(title, level=1)
        for item in items:
            document.add_paragraph(item, style="List Bullet")


def _word_evidence(document: DocxDocument, report: Report) -> None:
    _word_lists(document, lists_after(report))
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


def pdf(report: Report, *, heading: str, byline: str = "", author: str = "Context-1 Web") -> bytes:
    """The report as PDF (fpdf2 with the bundled DejaVu font): claims with note numbers, the notes, removed
    claims and the evidence, as in the Markdown and Word exports."""
    document = _Pdf()
    document.set_title(heading)
    document.set_author(author)
    document.add_page()
    document.paragraph(heading, size=16, bold=True)
    if byline:
        document.paragraph(byline, size=11)
    document.paragraph(
        f"Writer: {report.writer}. Every claim is backed by a quote found in the cited document.", size=9
    )
    for note in report.notes:
        document.paragraph(note, size=9)
    if (fit := fit_line(report)) is not None:
        document.paragraph(fit, bold=True)
    _pdf_lists(document, lists_before(report))
    _pdf_claims(document, report)
    _pdf_evidence(document, report)
    return bytes(document.output())


def _pdf_lists(document: _Pdf, lists: list[tuple[str, list[str]]]) -> None:
    for title, items in lists:
        document.heading(title)
        for item in items:
            document.paragraph(f"\u2022 {item}", size=9)


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
    _pdf_lists(document, lists_after(report))
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


def export(report: Report, fmt: str, *, heading: str, byline: str = "", author: str = "Context-1 Web") -> bytes:
    """``report`` as a file of format ``fmt`` (a key of ``MEDIA_TYPES``)."""
    if fmt == "md":
        return markdown(report, heading=heading, byline=byline).encode()
    if fmt == "docx":
        return word(report, heading=heading, byline=byline, author=author)
    if fmt == "pdf":
        return pdf(report, heading=heading, byline=byline, author=author)
    if fmt == "json":
        return as_json(report).encode()
    raise ValueError(f"unknown export format {fmt!r}")


def export_heading(report: Report) -> str:
    """What an export is titled: "Competitor report: Halyard Systems", "Answer: who founded ...?"."""
    return f"{_title(report)}: {report.subject}" if report.subject else _title(report)


def export_response(report: Report, fmt: str, *, run_id: int, workspace_name: str, internal: bool) -> HttpResponse:
    """The download of a run's report as ``fmt`` (the page's and the API's): titled with what was written and about
    what, the run and workspace below, the workspace its author; named ``run-<id>-report[-with-internal].<fmt>``."""
    byline = f"Run {run_id} · {workspace_name}"
    body = export(report, fmt, heading=export_heading(report), byline=byline, author=workspace_name)
    response = HttpResponse(body, content_type=MEDIA_TYPES[fmt])
    suffix = "-with-internal" if internal else ""
    response["Content-Disposition"] = f'attachment; filename="run-{run_id}-report{suffix}.{fmt}"'
    return response
