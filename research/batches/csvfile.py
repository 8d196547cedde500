"""Reading a CSV of companies for an ICP batch: each row accepted or rejected with its reason, one by one.

The first line names the columns: ``name`` (or ``company``) is required, ``domain`` (or ``website``) and
``notes`` are optional, in any order and case; commas, semicolons or tabs separate them. A blank line is
skipped; a row with no name, a name too long, a domain that is not one, more cells than columns, or the
same company as an earlier row is rejected with its line number, and the other rows still go ahead.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from charset_normalizer import from_bytes

MAX_BYTES = 1_000_000
MAX_ROWS = 200
NAME_MAX = 200
COLUMNS = {
    "name": "name",
    "company": "name",
    "company name": "name",
    "organisation": "name",
    "organization": "name",
    "domain": "domain",
    "website": "domain",
    "url": "domain",
    "notes": "notes",
    "note": "notes",
    "comment": "notes",
    "comments": "notes",
}
_DOMAIN = re.compile(r"^(?:https?://)?(?:www\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9-]{1,63})+)/?$", re.I)


@dataclass(frozen=True)
class Row:
    line: int
    name: str
    domain: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Rejected:
    line: int
    text: str  # what the line held, shortened
    reason: str


class CsvError(ValueError):
    """The file as a whole cannot be read as a list of companies."""


def _text(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise CsvError(f"the file has {len(data):,} bytes; at most {MAX_BYTES:,}")
    if b"\x00" in data[:4096]:
        raise CsvError("the file is not text (a CSV file is)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        best = from_bytes(data).best()
        if best is None:
            raise CsvError("the file's text encoding could not be read") from None
        return str(best)


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        return csv.excel


def _header(cells: list[str]) -> list[str | None]:
    named = [COLUMNS.get(" ".join(cell.strip().casefold().split())) for cell in cells]
    if "name" not in named:
        raise CsvError(
            "the first line must name the columns: name (or company; required), domain and notes (optional);"
            f" it has {', '.join(repr(cell) for cell in cells[:6]) or 'nothing'}"
        )
    return named


def domain_of(value: str) -> str | None:
    """The bare domain of ``value`` (a domain or a site's address), or None when it is not one."""
    match = _DOMAIN.match(value.strip())
    return match.group(1).casefold() if match else None


def _row(line: int, cells: list[str], header: list[str | None], seen: dict[str, int]) -> Row | Rejected:
    text = ", ".join(cells)[:200]
    if len(cells) > len(header):
        return Rejected(line, text, f"{len(cells)} cells; the first line names {len(header)} columns")
    values = {column: cell.strip() for column, cell in zip(header, cells, strict=False) if column}
    name = " ".join(values.get("name", "").split())
    if not name:
        return Rejected(line, text, "no company name")
    if len(name) > NAME_MAX:
        return Rejected(line, text, f"the name has {len(name)} characters; at most {NAME_MAX}")
    domain = values.get("domain", "")
    if domain and domain_of(domain) is None:
        return Rejected(line, text, f"{domain[:80]!r} is not a domain")
    key = name.casefold()
    if key in seen:
        return Rejected(line, text, f"the same company as line {seen[key]}")
    seen[key] = line
    return Row(line, name, domain_of(domain) or "", values.get("notes", "")[:1000])


def rows_of(data: bytes) -> tuple[list[Row], list[Rejected]]:
    """The accepted rows and the rejected ones (line numbers as a spreadsheet shows them); CsvError when the
    file as a whole is not a list of companies (not text, no header, no row, too many rows)."""
    text = _text(data)
    try:
        lines = list(csv.reader(io.StringIO(text), _dialect(text)))
    except csv.Error as error:
        raise CsvError(f"not a CSV file ({error})") from None
    numbered = [(number, cells) for number, cells in enumerate(lines, start=1) if any(cell.strip() for cell in cells)]
    if not numbered:
        raise CsvError("the file is empty")
    header = _header(numbered[0][1])
    seen: dict[str, int] = {}
    accepted: list[Row] = []
    rejected: list[Rejected] = []
    for number, cells in numbered[1:]:
        result = _row(number, cells, header, seen)
        (accepted if isinstance(result, Row) else rejected).append(result)  # type: ignore[arg-type]
    if not accepted and not rejected:
        raise CsvError("the file names its columns but lists no company")
    if len(accepted) > MAX_ROWS:
        raise CsvError(f"{len(accepted)} companies; at most {MAX_ROWS} a batch")
    return accepted, rejected
