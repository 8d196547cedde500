"""The companies CSV: rows accepted or rejected one by one, with line numbers; whole-file errors named."""

from __future__ import annotations

import pytest

from research.batches.csvfile import MAX_ROWS, CsvError, Rejected, Row, domain_of, rows_of


def test_rows_are_read_by_their_column_names_in_any_order_and_case() -> None:
    data = b"Domain;Company;Notes\nhalvorix.com;Halvorix;met at a fair\n\nhttps://www.globex.io/;Globex;\n"
    rows, rejected = rows_of(data)
    assert rows == [Row(2, "Halvorix", "halvorix.com", "met at a fair"), Row(4, "Globex", "globex.io", "")]
    assert rejected == []


def test_malformed_rows_are_rejected_one_by_one_and_the_rest_go_ahead() -> None:
    data = (
        "name,domain,notes\n"
        "Halvorix,halvorix.com,\n"
        ",nobody.com,\n"
        "Globex,not a domain,\n"
        "halvorix,,again\n"
        "Initech,initech.com,a,b\n"
        f"{'x' * 201},,\n"
        "Stellique Data,,\n"
    ).encode()
    rows, rejected = rows_of(data)
    assert [row.name for row in rows] == ["Halvorix", "Stellique Data"]
    assert [(item.line, item.reason) for item in rejected] == [
        (3, "no company name"),
        (4, "'not a domain' is not a domain"),
        (5, "the same company as line 2"),
        (6, "4 cells; the first line names 3 columns"),
        (7, "the name has 201 characters; at most 200"),
    ]
    assert isinstance(rejected[0], Rejected)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b"\x00\x01\x02binary", "not text"),
        (b"company size,city\n120,Lyon\n", "the first line must name the columns"),
        (b"name,domain\n", "lists no company"),
        (("name\n" + "".join(f"c{i}\n" for i in range(MAX_ROWS + 1))).encode(), f"at most {MAX_ROWS}"),
    ],
)
def test_a_file_that_is_not_a_list_of_companies_says_why(data: bytes, message: str) -> None:
    with pytest.raises(CsvError, match=message):
        rows_of(data)


def test_latin_1_files_are_read() -> None:
    rows, _ = rows_of("name\nSociété Générale\n".encode("latin-1"))
    assert rows[0].name == "Société Générale"


def test_domains() -> None:
    assert domain_of("https://www.Example.co.uk/") == "example.co.uk"
    assert domain_of("example") is None
    assert domain_of("a b.com") is None
