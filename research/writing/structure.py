"""Claims from a document's structure, not only its prose: a table row read with its header ("Formule: Cabinet;
Prix: 59 EUR par praticien et par mois") and a record (a CSV or JSON row as ingested: "column: value" lines)
read with its column names. Each such claim quotes the lines it stands on (a table row's header line and its own
line; a record's lines), so the citation check holds it to its chunk like any sentence.

A record is about the company its name column names (``row_company``: a CRM's account, a review's product, a
job row's company); a row that mentions a company elsewhere (a prospect's tech stack) is about another one."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from research.writing.citations import Evidence
from research.writing.names import Company
from research.writing.text import fold

FIELD_NAME = re.compile(r"(?:^|\s)([a-z\u00e0-\u00ff][a-z\u00e0-\u00ff_]{1,30}):\s")  # "account_name: "
_FIELD_LINE = re.compile(r"^\s*([A-Za-z\u00c0-\u00ff][\w\u00c0-\u00ff ]{0,30}):\s+(\S.*)$")
# The column that says whose row it is (a CRM's account, a review's product, a job row's company).
NAME_FIELDS = (
    *("company", "company_name", "account", "account_name", "organisation", "organization", "name", "customer"),
    *("vendor", "product", "competitor", "employer", "merchant", "client", "supplier", "bidder", "provider"),
    *("fournisseur", "concurrent", "prestataire"),
    *("societe", "soci\u00e9t\u00e9", "entreprise", "compte", "raison_sociale", "produit", "editeur", "\u00e9diteur"),
)
# What a key-figures table heads its figures' column with ("Metric | Value"): a row is then its label and value.
VALUE_HEADERS = frozenset(
    fold(word) for word in "value values valeur valeurs figure figures amount montant wert valor chiffre donnée".split()
)
_NAME_COLUMNS = frozenset(fold(name) for name in NAME_FIELDS)
MAX_CLAIM_CHARS = 600
_SEPARATOR_ROW = re.compile(r"^\|?[\s:|-]+\|?$")
# An action list's columns ("Action | Owner | Due", "Prochaine étape | Responsable | Échéance"): our own to-dos,
# a claim about nobody.
_OWNER_HEADERS = frozenset(fold(name) for name in ("owner", "assignee", "assigned to", "responsable", "porteur"))
_DUE_HEADERS = frozenset(fold(name) for name in ("due", "due date", "deadline", "échéance", "date limite", "pour le"))


def _action_list(names: Sequence[str]) -> bool:
    folded = {fold(name) for name in names}
    return bool(folded & _OWNER_HEADERS and folded & _DUE_HEADERS)


def fields_of(text: str) -> dict[str, str]:
    """A record's ``name: value`` fields (a CSV row as ingested: a line each, "Account name: Norrvika kommun" read
    as ``account_name``; or run together, "account_name: ... hq_city: ..."), or nothing for a sentence of prose."""
    filled = [line for line in text.splitlines() if line.strip()]
    lines = [match for line in filled if (match := _FIELD_LINE.match(line))]
    if len(lines) >= 3 and 2 * len(lines) >= len(filled):  # mostly fields: a page's address lines are not a record
        found: dict[str, str] = {}
        for match in lines:
            found.setdefault("_".join(match.group(1).casefold().split()), match.group(2).strip())
        return found
    marks = list(FIELD_NAME.finditer(text))
    if len(marks) < 3:
        return {}
    found = {}
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        end = following.start() if following else len(text)
        found.setdefault(mark.group(1).casefold(), text[mark.end() : end].strip())
    return found


def row_company(fields: Mapping[str, str]) -> str | None:
    """The name in a record's name column (None: no record, or no such column)."""
    for name in NAME_FIELDS:
        if fields.get(name):
            return fields[name]
    return None


@dataclass(frozen=True)
class Row:
    """A claim read from structure: its text and the lines of the chunk it quotes."""

    text: str
    quotes: tuple[str, ...]
    record: bool = False  # a record's row (its name column decides whose it is), not a table's
    keyed: bool = False  # a table's row whose first column names whose row it is ("Vendor", "Éditeur")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _joined(pairs: list[tuple[str, str]]) -> str:
    text = ""
    for name, value in pairs:
        piece = f"{name}: {value}" if name else value
        if text and len(text) + len(piece) + 2 > MAX_CLAIM_CHARS:
            break
        text = f"{text}; {piece}" if text else piece
    return text


_ROW_CELL = re.compile(r"^\s*([^:;]{1,40}):\s+(\S.*?)\s*$")


def row_cells(text: str) -> list[tuple[str, str]] | None:
    """The ``(header, cell)`` pairs of a table row's claim as ``_joined`` writes it ("Plan: Essentials; Price: AUD
    4.50 per hectare per year"), or None for text that is not one (prose, or a single cell)."""
    parts = text.split("; ")
    cells = [(found.group(1), found.group(2)) for part in parts if (found := _ROW_CELL.match(part))]
    return cells if len(cells) >= 2 and len(cells) == len(parts) else None


def _keyed(header: list[str]) -> bool:
    """Whether a table's first column names whose row it is: its header is a name column's ("Vendor", "Éditeur")."""
    return fold(header[0]).replace(" ", "_") in _NAME_COLUMNS


def table_rows(text: str) -> list[Row]:
    """Each row of each pipe table in ``text`` (a web page's, a Word document's or a PDF's table as parsed: "| a |
    b |" lines, or "a | b" lines), read with its header row's names; a key-figures table's row (its second column
    headed with one of ``VALUE_HEADERS``: "Metric | Value") as its label and its value ("Revenue 2025: PLN 96 m"),
    then any further columns with their names. An action list's rows are none (``_action_list``), nor are the lines
    of an e-mail's signature (after its "--" line)."""
    found: list[Row] = []
    header: list[str] | None = None
    header_line = ""
    for line in text.splitlines():
        if line.rstrip() == "--":
            break  # an e-mail's signature ("Nurul Aisyah | Account Executive"): no table
        if "|" not in line or len(_cells(line)) < 2:
            header = None
            continue
        if _SEPARATOR_ROW.match(line.strip()):
            continue
        cells = _cells(line)
        if header is None or len(cells) != len(header):
            header, header_line = cells, line
            continue
        if _action_list(header):
            continue
        labelled = fold(header[1]) in VALUE_HEADERS and all(cells[:2])  # "Metric | Value": a label and its value
        named = zip(header[2:], cells[2:], strict=True) if labelled else zip(header, cells, strict=True)
        pairs = [*([(cells[0], cells[1])] if labelled else []), *((name, value) for name, value in named if value)]
        if labelled or len(pairs) >= 2:
            found.append(Row(_joined(pairs), (header_line.strip(), line.strip()), keyed=_keyed(header)))
    return found


def record_row(text: str) -> Row | None:
    """A record's fields as one claim ("produit: Praxelune Agenda; note_sur_5: 5; commentaire: ..."), quoting its
    lines; None for prose (fewer than three "name: value" lines) and for an action list's item (``_action_list``)."""
    lines = [line.strip() for line in text.splitlines() if _FIELD_LINE.match(line)]
    if len(lines) < 3:
        return None
    pairs = [(match.group(1), match.group(2).strip()) for line in lines if (match := _FIELD_LINE.match(line))]
    if _action_list([name for name, _ in pairs]):
        return None
    claim = _joined(pairs)
    return Row(claim, (claim,), record=True)


def rows_of(text: str) -> list[Row]:
    """Every claim a chunk's structure holds: its record, then its tables' rows."""
    record = record_row(text)
    return [*([record] if record is not None else []), *table_rows(text)]


def record_about(company: Company, fields: Mapping[str, str]) -> bool | None:
    """Whether a record's name column names the company (and no look-alike of it); None when the text is no
    record with a name column. The writer's rows and the ICP judge's sentences both ask it."""
    named = row_company(fields) if fields else None
    if named is None:
        return None
    return company.named_in(named) and not company.lookalike_in(named)


def row_about(company: Company, row: Row, evidence: Evidence) -> bool:
    """A record is about the company its name column names (any other column's mention is another company's
    row); a table row is when it stands in the company's own document or one of its cells names it (a battlecard's
    comparison whose column is headed with the company's name is ours, not a claim about it)."""
    if company.lookalike_in(row.text):
        return False
    if row.record:
        owned = record_about(company, fields_of(evidence.text))
        return company.named_in(row.text) if owned is None else owned
    if company.speaks_in(evidence):
        return True
    cells = row.quotes[-1]  # the row's own line: a company named only as a column's header is a comparison
    return company.named_in(cells) or (not row.keyed and company.profiled_in(evidence))
