"""detect_kind: the extension decides, the content must agree; empty and unsupported files are refused."""

from __future__ import annotations

import pytest

from research.retrieval.parsing import ParseError, detect_kind, parse_bytes
from tests.research.retrieval import samples


@pytest.mark.parametrize(
    ("name", "data", "kind"),
    [
        ("a.txt", b"hello", "text"),
        ("A.MD", b"# hi", "markdown"),
        ("page.htm", b"<p>x</p>", "html"),
        ("r.pdf", samples.pdf(["x"]), "pdf"),
        ("d.docx", samples.docx_file(), "docx"),
        ("m.eml", b"Subject: x\n\nbody", "email"),
        ("m.mbox", b"From a@b Sat Jan  1 00:00:00 2024\nSubject: x\n\nbody\n", "email"),
        ("t.csv", b"a,b\n1,2\n", "csv"),
        ("t.tsv", b"a\tb\n1\t2\n", "csv"),
        ("r.jsonl", b'{"text": "x"}\n', "json"),
        ("archive.zip/inner/r.json", b"{}", "json"),
    ],
)
def test_it_detects_the_kind_by_extension(name: str, data: bytes, kind: str) -> None:
    assert detect_kind(name, data) == kind


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("image.pdf", samples.png(), "file says .pdf but its content is a PNG image"),
        ("bundle.pdf", samples.zip_file({"a.txt": b"x"}), "file says .pdf but its content is a ZIP archive"),
        ("notes.pdf", b"just words, no PDF here", "file says .pdf but its content is text"),
        ("junk.txt", bytes(range(256)) * 8, "file says .txt but its content is binary data of an unknown type"),
        ("picture.txt", samples.png(), "file says .txt but its content is a PNG image"),
        ("report.md", samples.pdf(["x"]), "file says .md but its content is a PDF document"),
        ("words.docx", b"plain words", "file says .docx but its content is text"),
        (
            "archive.docx",
            samples.zip_file({"a.txt": b"x"}),
            "file says .docx but its content is a ZIP archive that is not a Word document",
        ),
        (
            "legacy.docx",
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(64),
            "file says .docx but its content is an old Microsoft Office file",
        ),
        ("broken.docx", b"PK\x03\x04" + bytes(100), "corrupt DOCX file: its ZIP container cannot be read"),
    ],
)
def test_it_refuses_content_that_contradicts_the_extension(name: str, data: bytes, reason: str) -> None:
    with pytest.raises(ParseError) as caught:
        detect_kind(name, data)

    assert caught.value.reason == reason


@pytest.mark.parametrize("name", ["empty.txt", "empty.pdf", "empty.docx", "blank.csv", "blank.json"])
@pytest.mark.parametrize("data", [b"", b"  \n\t\r\n"])
def test_it_refuses_empty_files(name: str, data: bytes) -> None:
    with pytest.raises(ParseError) as caught:
        parse_bytes(name, data)

    assert caught.value.reason == "empty file"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("photo.png", "unsupported file type .png (supported: "),
        ("README", "unsupported file type: the name has no extension"),
        ("bundle.zip", "zip archives are expanded before parsing (expand_upload), not parsed"),
    ],
)
def test_it_refuses_unsupported_types(name: str, reason: str) -> None:
    with pytest.raises(ParseError) as caught:
        detect_kind(name, b"some content")

    assert caught.value.reason.startswith(reason)


def test_it_keeps_parse_error_reasons_on_one_line() -> None:
    assert ParseError("first line\n  second line").reason == "first line second line"
