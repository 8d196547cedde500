"""Public value types of the parsing package: options, parsed documents, outcomes and the parse error."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["text", "markdown", "html", "pdf", "docx", "email", "csv", "json"]


@dataclass(frozen=True)
class ParseOptions:
    """How to turn one uploaded file into documents; only the tabular parsers read the csv_/json_ fields."""

    csv_mode: Literal["row", "table"] = "row"
    csv_title_column: str | None = None
    csv_group_by: str | None = None
    json_title_field: str = "title"
    json_text_field: str = "text"
    json_metadata_fields: tuple[str, ...] = ()
    max_output_chars: int = 20_000_000


@dataclass(frozen=True)
class ParsedDocument:
    """One document taken from an uploaded file; metadata values are strings, dates ISO-8601 under "date"."""

    title: str
    text: str
    source_name: str
    doc_key: str
    metadata: dict[str, str]
    kind: str


@dataclass(frozen=True)
class ParseOutcome:
    """The documents parsed from one file plus the non-fatal problems met on the way (a bad row, a bad page)."""

    source_name: str
    documents: list[ParsedDocument]
    errors: list[str] = field(default_factory=list)
    # which field each part was read from, where a record format chose ("text": "texte", "title": "titre", "date":
    # "date_publication"; a text of "*": every field, as a record), so the file's row can say so
    fields: dict[str, str] = field(default_factory=dict)


class ParseError(Exception):
    """A file-level failure; `reason` is one line meant for the person who uploaded the file."""

    def __init__(self, reason: str) -> None:
        self.reason = " ".join(reason.split())
        super().__init__(self.reason)
