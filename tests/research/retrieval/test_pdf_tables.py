"""A PDF page's tables as layout mode shows them, written into its plain text (parsing/pdf_tables.py)."""

from __future__ import annotations

from research.retrieval.parsing.pdf_tables import cells_of, layout_tables, with_tables

PLAIN = "Numbers\nMetric Value\nARR, FY2026 AUD 14.2 million\nARR, FY2025 AUD 8.9 million\nOutlook follows."
LAYOUT = """Numbers

Metric                                   Value

ARR, FY2026                              AUD 14.2 million

ARR, FY2025                              AUD 8.9 million
Outlook follows."""


def test_cells_are_three_or_more_spaces_apart() -> None:
    assert cells_of("  ARR, FY2026        AUD 14.2 million  ") == ["ARR, FY2026", "AUD 14.2 million"]
    assert cells_of("A sentence with  two spaces once.") == ["A sentence with  two spaces once."]


def test_a_table_replaces_the_plain_lines_that_hold_its_words() -> None:
    assert layout_tables(LAYOUT) == [
        [["Metric", "Value"], ["ARR, FY2026", "AUD 14.2 million"], ["ARR, FY2025", "AUD 8.9 million"]]
    ]
    assert with_tables(PLAIN, LAYOUT) == (
        "Numbers\nMetric | Value\nARR, FY2026 | AUD 14.2 million\nARR, FY2025 | AUD 8.9 million\nOutlook follows."
    )


def test_two_short_rows_are_no_table() -> None:
    layout = "Metric        Value\nARR           AUD 14.2 million\nA sentence."
    assert layout_tables(layout) == []


def test_prose_in_two_columns_is_left_as_the_plain_text_reads_it() -> None:
    # layout mode puts the columns side by side; the plain text reads one column, then the other
    plain = "Left column opens\nand goes on here.\nThe right column\nsays something else."
    layout = (
        "Left column opens             The right column\n"
        "and goes on here.             says something else.\n"
        "More of the left              More of the right"
    )
    assert len(layout_tables(layout)) == 1
    assert with_tables(plain, layout) == plain
