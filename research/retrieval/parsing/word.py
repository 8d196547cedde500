"""Word (.docx) files through python-docx: paragraphs and tables in document order, core properties."""

from __future__ import annotations

import io

import docx
from docx.document import Document
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table, _Cell
from docx.text.paragraph import Paragraph

from research.retrieval.parsing.common import (
    ZIP_ERRORS,
    OutputBudget,
    Source,
    compact_metadata,
    describe_error,
    iso_date,
)
from research.retrieval.parsing.types import ParsedDocument, ParseError, ParseOptions, ParseOutcome

# lxml's XMLSyntaxError (a broken part inside the package) is a SyntaxError.
_MALFORMED = (PackageNotFoundError, SyntaxError, AttributeError, TypeError, *ZIP_ERRORS)
_TITLE_STYLES = frozenset({"Title", "Heading 1"})


def parse_docx(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    try:
        document = docx.Document(io.BytesIO(source.data))
        blocks = [_block_text(block) for block in document.iter_inner_content()]
        metadata = _metadata(document)
        title = metadata.pop("title", "") or _styled_title(document) or source.stem
    except _MALFORMED as error:
        raise ParseError(f"corrupt DOCX file: {describe_error(error)}") from None
    text = budget.charge("\n\n".join(block for block in blocks if block))
    if not text:
        raise ParseError("no text found in the DOCX file")
    parsed = ParsedDocument(
        title=title,
        text=text,
        source_name=source.name,
        doc_key="",
        metadata=metadata,
        kind="docx",
    )
    return ParseOutcome(source_name=source.name, documents=[parsed], errors=[])


def _block_text(block: Paragraph | Table) -> str:
    if isinstance(block, Paragraph):
        return block.text.strip()
    return "\n".join(filter(None, (_row_text(row.cells) for row in block.rows)))


def _row_text(cells: list[_Cell]) -> str:
    """Cells joined by " | "; a merged cell (the same cell repeated) appears once."""
    texts: list[str] = []
    previous = None
    for cell in cells:
        if cell._tc is not previous:
            texts.append(" ".join(cell.text.split()))
        previous = cell._tc
    return " | ".join(texts) if any(texts) else ""


def _metadata(document: Document) -> dict[str, str]:
    properties = document.core_properties
    return compact_metadata(
        {"title": properties.title, "author": properties.author, "date": iso_date(properties.created)}
    )


def _styled_title(document: Document) -> str | None:
    for paragraph in document.paragraphs:
        style = paragraph.style
        if style is not None and style.name in _TITLE_STYLES and paragraph.text.strip():
            return paragraph.text.strip()
    return None
