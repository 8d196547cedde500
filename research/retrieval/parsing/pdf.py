"""PDF files through pypdf: text page by page, tables as "cell | cell" lines (pdf_tables.py); encrypted files are
refused unless they open without a password."""

from __future__ import annotations

import io
import struct
import zlib

from pypdf import DocumentInformation, PageObject, PasswordType, PdfReader
from pypdf.errors import DependencyError, DeprecationError, PyPdfError

from research.retrieval.parsing.common import OutputBudget, Source, compact_metadata, describe_error, iso_date
from research.retrieval.parsing.pdf_tables import with_tables
from research.retrieval.parsing.types import ParsedDocument, ParseError, ParseOptions, ParseOutcome

# pypdf reports malformed files through its own errors and, deeper down, through plain Python ones.
_MALFORMED = (
    PyPdfError,
    DependencyError,
    DeprecationError,
    ValueError,
    LookupError,
    TypeError,
    AttributeError,
    ArithmeticError,
    NotImplementedError,
    RecursionError,
    struct.error,
    zlib.error,
)
_NO_TEXT = "no text found in the PDF: scanned pages need OCR, which is not supported"


def parse_pdf(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    reader = _open(source.data)
    pages, errors = _page_texts(reader, budget)
    text = "\n\n".join(page for page in pages if page)
    if not text:
        raise ParseError(_NO_TEXT)
    metadata = _metadata(reader)
    document = ParsedDocument(
        title=metadata.pop("title", "") or source.stem,
        text=text,
        source_name=source.name,
        doc_key="",
        metadata=metadata,
        kind="pdf",
    )
    return ParseOutcome(source_name=source.name, documents=[document], errors=errors)


def _open(data: bytes) -> PdfReader:
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
            raise ParseError("encrypted PDF: a password is needed")
        len(reader.pages)
    except DependencyError as error:
        raise ParseError(f"encrypted PDF: its encryption is not supported ({error})") from None
    except _MALFORMED as error:
        raise ParseError(f"corrupt PDF: {describe_error(error)}") from None
    return reader


def _page_texts(reader: PdfReader, budget: OutputBudget) -> tuple[list[str], list[str]]:
    texts: list[str] = []
    errors: list[str] = []
    for number in range(1, len(reader.pages) + 1):
        try:
            page: PageObject = reader.pages[number - 1]
            texts.append(budget.charge(_page_text(page)))
        except _MALFORMED as error:
            errors.append(f"page {number}: text could not be extracted ({describe_error(error)})")
    return texts, errors


def _page_text(page: PageObject) -> str:
    """The page's text, its tables as "cell | cell" lines where layout mode shows them (``with_tables``)."""
    plain = page.extract_text().strip()
    try:
        layout = page.extract_text(extraction_mode="layout")
    except _MALFORMED:  # the plain text stands
        return plain
    return with_tables(plain, layout)


def _metadata(reader: PdfReader) -> dict[str, str]:
    try:
        info: DocumentInformation | None = reader.metadata
        if info is None:
            return {"pages": str(len(reader.pages))}
        return compact_metadata(
            {
                "title": info.title,
                "author": info.author,
                "date": _creation_date(info),
                "pages": str(len(reader.pages)),
            }
        )
    except _MALFORMED:
        return {"pages": str(len(reader.pages))}


def _creation_date(info: DocumentInformation) -> str | None:
    try:
        return iso_date(info.creation_date)
    except ValueError:
        return None
