"""CSV and TSV files through the standard csv module: one document per row, or tables grouped by a column."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from research.retrieval.parsing.common import OutputBudget, Source
from research.retrieval.parsing.fields import title_like
from research.retrieval.parsing.types import ParsedDocument, ParseError, ParseOptions, ParseOutcome

_SNIFF_CHARS = 65_536
_DELIMITERS = ",;\t|"
_SHORT_TEXT = 80  # characters: a cell this long or less can title its row
_TITLE_CHARS = 120
_NOT_TEXT = re.compile(r"^[\d\s.,:/+%$€£-]*$|@|://")  # figures, dates, ids, addresses: no title


@dataclass
class Table:
    """The header and the readable rows of a CSV file (numbered from 1 after the header), plus row problems."""

    header: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def column(self, name: str, option: str) -> int:
        if name not in self.header:
            raise ParseError(f"the CSV file has no column {name!r} for {option} (columns: {', '.join(self.header)})")
        return self.header.index(name)


def parse_csv(source: Source, options: ParseOptions, budget: OutputBudget) -> ParseOutcome:
    table = read_table(source.text, tab_separated=source.extension == ".tsv")
    if options.csv_mode == "table":
        documents = _group_documents(table, source, options, budget)
        return ParseOutcome(source_name=source.name, documents=documents, errors=table.errors)
    title_at = _title_column(table, options)
    documents = _row_documents(table, source, title_at, budget)
    fields = {"title": table.header[title_at]} if title_at is not None else {}
    return ParseOutcome(source_name=source.name, documents=documents, errors=table.errors, fields=fields)


def read_table(text: str, *, tab_separated: bool = False) -> Table:
    reader = csv.reader(io.StringIO(text, newline=""), _dialect(text, tab_separated))
    try:
        header = _column_names(next(reader))
    except (StopIteration, csv.Error) as error:
        raise ParseError(f"the CSV file has no readable header row ({error or 'no rows'})") from None
    table = Table(header=header)
    number = 0
    while True:
        number += 1
        try:
            values = next(reader)
        except StopIteration:
            return table
        except csv.Error as error:
            table.errors.append(f"row {number}: unreadable ({error})")
            continue
        _add_row(table, number, values)


def _add_row(table: Table, number: int, values: list[str]) -> None:
    if len(values) > len(table.header):
        table.errors.append(f"row {number}: {len(values)} values but the header has {len(table.header)} columns")
    elif any(value.strip() for value in values):
        table.rows.append((number, values + [""] * (len(table.header) - len(values))))


def _dialect(text: str, tab_separated: bool) -> type[csv.Dialect] | csv.Dialect:
    if tab_separated:
        return csv.excel_tab
    sample = text[:_SNIFF_CHARS]
    if len(text) > len(sample):
        sample = sample.rpartition("\n")[0] or sample
    try:
        return csv.Sniffer().sniff(sample, delimiters=_DELIMITERS)
    except csv.Error:
        return csv.excel


def _column_names(raw: list[str]) -> list[str]:
    """Header cells, stripped; blank ones become "column N" and repeated ones get a "_2", "_3"... suffix."""
    names: list[str] = []
    for index, cell in enumerate(raw, 1):
        name = cell.strip().lstrip("\ufeff") or f"column {index}"
        candidate, suffix = name, 2
        while candidate in names:
            candidate, suffix = f"{name}_{suffix}", suffix + 1
        names.append(candidate)
    return names


def _row_documents(table: Table, source: Source, title_at: int | None, budget: OutputBudget) -> list[ParsedDocument]:
    documents: list[ParsedDocument] = []
    for number, values in table.rows:
        text = "\n".join(f"{name}: {value}" for name, value in zip(table.header, values, strict=True) if value.strip())
        documents.append(
            ParsedDocument(
                title=_row_title(values[title_at] if title_at is not None else "", source, number),
                text=budget.charge(text),
                source_name=source.name,
                doc_key=f"row-{number}",
                metadata={"row": str(number)},
                kind="csv",
            )
        )
    return documents


def _title_column(table: Table, options: ParseOptions) -> int | None:
    """The column that titles each row: the corpus's ``csv_title_column``, else a title-like one by its name
    (``fields.TITLE_COLUMNS``: "Company", "Société", "Titel", ...), else the first short text column (None: no
    column titles the rows)."""
    if options.csv_title_column:
        return table.column(options.csv_title_column, "csv_title_column")
    named = title_like(table.header)
    if named is not None:
        return table.header.index(named)
    return next((at for at in range(len(table.header)) if _short_text(table, at)), None)


def _short_text(table: Table, at: int) -> bool:
    """Whether the column holds short words in most rows (a city, a label): not figures, dates, ids or addresses,
    not long free text."""
    cells = [values[at].strip() for _, values in table.rows[:200]]
    filled = [cell for cell in cells if cell]
    wordy = [cell for cell in filled if len(cell) <= _SHORT_TEXT and not _NOT_TEXT.search(cell)]
    return bool(filled) and 2 * len(filled) >= len(cells) and 4 * len(wordy) >= 3 * len(filled)


def _row_title(value: str, source: Source, number: int) -> str:
    """A row's title: its title cell with its file and row ("Acme GmbH (crm.csv, row 40)"), so a citation says
    which row of which file; a row without one is "<file stem> row N"."""
    value = " ".join(value.split())
    if not value:
        return f"{source.stem} row {number}"
    if len(value) > _TITLE_CHARS:
        value = value[: _TITLE_CHARS - 1].rstrip() + "\u2026"
    return f"{value} ({source.name.rpartition('/')[2]}, row {number})"


def _group_documents(table: Table, source: Source, options: ParseOptions, budget: OutputBudget) -> list[ParsedDocument]:
    column = options.csv_group_by
    group_at = table.column(column, "csv_group_by") if column else None
    groups: dict[str, list[list[str]]] = {}
    for _, values in table.rows:
        groups.setdefault(values[group_at].strip() if group_at is not None else "", []).append(values)
    documents: list[ParsedDocument] = []
    for value, rows in groups.items():
        metadata = {"rows": str(len(rows))}
        if column:
            metadata |= {"group_by": column, "group": value}
        documents.append(
            ParsedDocument(
                title=f"{source.stem} ({column}: {value or '(blank)'})" if column else source.stem,
                text=budget.charge(render_table(table.header, rows)),
                source_name=source.name,
                doc_key=f"group-{value}" if column else "",
                metadata=metadata,
                kind="csv",
            )
        )
    return documents


def render_table(header: list[str], rows: list[list[str]]) -> str:
    """A compact text table: the header line, then one line per row, cells separated by " | "."""
    lines = [header, *rows]
    return "\n".join(" | ".join(_cell(value) for value in line) for line in lines)


def _cell(value: str) -> str:
    return " ".join(value.split()).replace("|", "\\|")
