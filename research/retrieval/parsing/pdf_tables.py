"""A PDF page's tables, read back as tables.

pypdf's plain text runs a table's cells together ("Revenue 2025 PLN 96 m (approx. EUR 22.5 m)"): which words are
the row's label and which its figure is lost, and with it whose figure it is. Its layout mode keeps the columns
apart (runs of spaces) but spreads prose across the page. So the plain text is kept, and each table that layout
mode shows (at least ``MIN_LINES`` consecutive lines of the same number of cells, ``GAP`` or more spaces apart)
replaces the plain lines that hold the same words, as "cell | cell" lines: the way a Word document's table is
parsed, and what the report writer reads a row with its header from (research/writing/structure.py). A table whose
lines the plain text does not hold line for line (a page in two columns of prose reads the same) is left as the
plain text has it.
"""

from __future__ import annotations

import re

GAP = 3  # spaces between two cells of a row in layout mode (a sentence's words are one space apart)
MIN_LINES = 3  # a header and two rows
_CELL_GAP = re.compile(rf"\s{{{GAP},}}")
_SPACE = re.compile(r"\s+")


def cells_of(line: str) -> list[str]:
    """A layout line's cells (one for a line of prose)."""
    return [cell for cell in _CELL_GAP.split(line.strip()) if cell]


def layout_tables(layout: str) -> list[list[list[str]]]:
    """The tables of a page's layout text: runs of lines (blank lines between them ignored) with the same number
    of cells, two or more, at least ``MIN_LINES`` long; each a list of rows of cells."""
    tables: list[list[list[str]]] = []
    run: list[list[str]] = []
    for line in layout.splitlines():
        if not line.strip():
            continue
        cells = cells_of(line)
        if len(cells) >= 2 and (not run or len(cells) == len(run[0])):
            run.append(cells)
            continue
        if len(run) >= MIN_LINES:
            tables.append(run)
        run = [cells] if len(cells) >= 2 else []
    if len(run) >= MIN_LINES:
        tables.append(run)
    return tables


def _squeezed(text: str) -> str:
    return _SPACE.sub("", text)


def with_tables(plain: str, layout: str) -> str:
    """The page's plain text with each of its layout tables written as "cell | cell" lines, where the plain text
    holds the table's rows as consecutive lines (compared without spaces); otherwise the plain text unchanged."""
    lines = plain.splitlines()
    squeezed = [_squeezed(line) for line in lines]
    for table in layout_tables(layout):
        rows = [_squeezed("".join(cells)) for cells in table]
        start = next(
            (index for index in range(len(lines) - len(rows) + 1) if squeezed[index : index + len(rows)] == rows),
            None,
        )
        if start is None:
            continue
        marked = [" | ".join(cells) for cells in table]
        lines[start : start + len(rows)] = marked
        squeezed[start : start + len(rows)] = [f"\0{line}" for line in marked]  # matched once
    return "\n".join(lines)
