"""Glue shared by the parsers: the source being parsed, the output budget and small naming helpers."""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime

from research.retrieval.parsing.types import ParseError

# zipfile reports damaged archives through all of these, depending on where the damage is.
ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    EOFError,
    OSError,
    ValueError,
    RuntimeError,
    NotImplementedError,
    LookupError,
)


@dataclass(frozen=True)
class Source:
    """One file handed to a parser: its name, raw bytes and, for text-based kinds, the decoded text."""

    name: str
    data: bytes
    decoded: str | None = None

    @property
    def text(self) -> str:
        if self.decoded is None:
            raise ParseError(f"{self.name} is not a text file")
        return self.decoded

    @property
    def stem(self) -> str:
        return file_stem(self.name)

    @property
    def extension(self) -> str:
        return file_extension(self.name)


class OutputBudget:
    """Counts the characters of text a file produces and refuses past the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def charge(self, text: str) -> str:
        self.used += len(text)
        if self.used > self.limit:
            raise ParseError(f"the file's text is longer than the limit of {self.limit:,} characters")
        return text


def file_extension(name: str) -> str:
    """The lower-case extension of the last path component, with its dot ("" when there is none)."""
    return posixpath.splitext(posixpath.basename(name))[1].lower()


def file_stem(name: str) -> str:
    """The last path component without its extension, the fallback title of a document."""
    base = posixpath.basename(name)
    return posixpath.splitext(base)[0] or base or name


def iso_date(value: date | datetime | None) -> str | None:
    """ISO-8601 text for a date or datetime, None when unknown."""
    return value.isoformat() if value is not None else None


def compact_metadata(values: dict[str, str | None]) -> dict[str, str]:
    """Drop unknown (None) and blank values; strip the rest."""
    return {key: value.strip() for key, value in values.items() if value is not None and value.strip()}


# a page's copyright line and site, its site's name, a mail's sender
PUBLISHER_FIELDS = ("publisher", "sitename", "from")


def publisher_of(metadata: Mapping[str, object]) -> str:
    """Who a parsed document says published it (research.writing.names tells a company's own documents by it;
    BM25 indexes it with the document's chunks, as their title)."""
    return "; ".join(str(metadata[key]) for key in PUBLISHER_FIELDS if metadata.get(key))


def describe_error(error: BaseException) -> str:
    """A library exception as one short line: its type and message."""
    message = " ".join(str(error).split())[:300]
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
