"""Which parser a file needs: its extension, verified against what its bytes actually are."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from research.retrieval.parsing.common import ZIP_ERRORS, file_extension
from research.retrieval.parsing.decoding import decode_text
from research.retrieval.parsing.types import Kind, ParseError

KINDS_BY_EXTENSION: dict[str, Kind] = {
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".docx": "docx",
    ".eml": "email",
    ".mbox": "email",
    ".csv": "csv",
    ".tsv": "csv",
    ".json": "json",
    ".jsonl": "json",
    ".ndjson": "json",
}
_SIGNATURES = (
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"PK\x05\x06", "a ZIP archive"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Microsoft Office file"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\xfd7zXZ\x00", "an XZ archive"),
    (b"\x28\xb5\x2f\xfd", "a Zstandard archive"),
    (b"\x7fELF", "an executable program"),
    (b"{\\rtf", "an RTF document"),
)
_PDF_HEADER_WINDOW = 1024


@dataclass(frozen=True)
class Sniffed:
    """The verified kind of a file and, for text-based kinds, its decoded text."""

    kind: Kind
    text: str | None


def detect_kind(name: str, data: bytes) -> str:
    """The parser kind for this file; raises ParseError when unsupported, empty or not what its name says."""
    return sniff(name, data).kind


def sniff(name: str, data: bytes) -> Sniffed:
    extension = file_extension(name)
    kind = KINDS_BY_EXTENSION.get(extension)
    if kind is None:
        raise ParseError(_unsupported(extension))
    if not data.strip():
        raise ParseError("empty file")
    if kind == "pdf":
        _require(b"%PDF-" in data[:_PDF_HEADER_WINDOW], extension, data)
        return Sniffed(kind, None)
    if kind == "docx":
        _require(_is_word_package(data), extension, data)
        return Sniffed(kind, None)
    _require(describe_content(data) is None, extension, data)
    text = decode_text(data)
    _require(text is not None, extension, data)
    return Sniffed(kind, text)


def describe_content(data: bytes) -> str | None:
    """What a known binary signature says these bytes are ("a PNG image"), None when none matches."""
    return next((what for magic, what in _SIGNATURES if data.startswith(magic)), None)


def _require(ok: bool, extension: str, data: bytes) -> None:
    if ok:
        return
    what = describe_content(data)
    if what is None:
        what = "text" if decode_text(data[:65536]) is not None else "binary data of an unknown type"
    if what == "a ZIP archive" and extension == ".docx":
        what = "a ZIP archive that is not a Word document"
    raise ParseError(f"file says {extension} but its content is {what}")


def _is_word_package(data: bytes) -> bool:
    if not data.startswith(b"PK\x03\x04"):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            names = set(package.namelist())
    except ZIP_ERRORS:
        raise ParseError("corrupt DOCX file: its ZIP container cannot be read") from None
    return "[Content_Types].xml" in names and any(name.startswith("word/") for name in names)


def _unsupported(extension: str) -> str:
    supported = ", ".join(sorted(KINDS_BY_EXTENSION))
    if extension == ".zip":
        return "zip archives are expanded before parsing (expand_upload), not parsed"
    if not extension:
        return f"unsupported file type: the name has no extension (supported: {supported})"
    return f"unsupported file type {extension} (supported: {supported})"
