"""Sample uploads for the parsing tests, generated with real writers (fpdf2, python-docx, email, mailbox, zipfile)."""

from __future__ import annotations

import csv
import io
import json
import mailbox
import struct
import tempfile
import zipfile
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import docx
from fpdf import FPDF
from PIL import Image

CREATED = datetime(2024, 3, 5, 10, 30, tzinfo=UTC)


def pdf(pages: list[str], *, title: str = "", author: str = "", user_password: str | None = None) -> bytes:
    document = FPDF()
    document.set_creation_date(CREATED)
    if title:
        document.set_title(title)
    if author:
        document.set_author(author)
    for text in pages:
        document.add_page()
        if text:
            document.set_font("helvetica", size=12)
            document.multi_cell(0, 8, text)
    if user_password is not None:
        document.set_encryption(owner_password="owner-secret", user_password=user_password)
    return bytes(document.output())


def pdf_with_table(before: str, rows: list[tuple[str, ...]], after: str) -> bytes:
    """A one-page PDF: a paragraph, a table without borders (fpdf2's table), a paragraph."""
    document = FPDF()
    document.set_creation_date(CREATED)
    document.add_page()
    document.set_font("helvetica", size=11)
    document.multi_cell(0, 7, before)
    with document.table(borders_layout="NONE", first_row_as_headings=False) as table:
        for values in rows:
            row = table.row()
            for value in values:
                row.cell(value)
    document.multi_cell(0, 7, after)
    return bytes(document.output())


def docx_file(*, title: str = "Design Notes", author: str = "Grace Hopper") -> bytes:
    document = docx.Document()
    document.core_properties.title = title
    document.core_properties.author = author
    document.core_properties.created = CREATED.replace(tzinfo=None)
    document.add_heading("Retrieval design", level=1)
    document.add_paragraph("Hybrid search fuses BM25 and dense results.")
    table = document.add_table(rows=3, cols=3)
    values_by_row = [["Stage", "Tool", "Notes"], ["sparse", "bm25s", "fast"], ["dense", "chroma", ""]]
    for row, values in zip(table.rows, values_by_row, strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    merged = table.cell(2, 1).merge(table.cell(2, 2))
    merged.text = "chroma"
    document.add_paragraph("Reciprocal rank fusion comes last.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def html_page() -> bytes:
    return b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fusion explained</title>
<meta name="author" content="Ada Lovelace"><style>body { color: red; }</style></head>
<body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/pricing">Pricing page link</a></li></ul></nav>
<header><div class="banner">Subscribe to our newsletter banner</div></header>
<main><article>
<h1>Reciprocal rank fusion</h1>
<p>Reciprocal rank fusion combines several ranked lists into one by summing the reciprocal of each rank,
which rewards documents that several retrievers agree on without needing comparable scores.</p>
<p>The constant sixty in the denominator dampens the influence of the very top ranks, a choice made in the
original paper by Cormack, Clarke and Buettcher that has held up well in later evaluations.</p>
</article></main>
<footer><p>Copyright 2024 Example Corp. All rights reserved. Imprint and privacy policy.</p></footer>
<script>window.trackingCode = "SECRET-TRACKER";</script>
</body></html>"""


def email_message(*, subject: str = "Quarterly numbers", message_id: str = "<q1@example.org>") -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Ann Example <ann@example.org>"
    message["To"] = "bob@example.org, Cid <cid@example.org>"
    message["Cc"] = "dee@example.org"
    message["Subject"] = subject
    message["Date"] = format_datetime(CREATED)
    message["Message-ID"] = message_id
    message.set_content("Plain body: revenue grew 12 percent.\n")
    message.add_alternative(
        "<html><body><p>HTML body: revenue <b>grew</b> 12 percent.</p></body></html>", subtype="html"
    )
    return message


def eml_with_attachment() -> bytes:
    message = email_message()
    message.add_attachment(b"%PDF-1.4 fake", maintype="application", subtype="pdf", filename="report.pdf")
    message.add_attachment("a,b\n1,2\n", filename="numbers.csv")
    return message.as_bytes()


def eml_html_only() -> bytes:
    message = EmailMessage()
    message["From"] = "news@example.org"
    message["Subject"] = "Newsletter"
    message.set_content("<html><body><p>Only an <i>HTML</i> body here.</p></body></html>", subtype="html")
    return message.as_bytes()


def mbox(messages: list[EmailMessage]) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sample.mbox"
        box = mailbox.mbox(path)
        for message in messages:
            box.add(message)
        box.flush()
        box.close()
        return path.read_bytes()


def three_message_mbox() -> bytes:
    first = email_message(subject="First", message_id="<one@example.org>")
    second = email_message(subject="Second", message_id="<one@example.org>")  # a repeated id
    third = EmailMessage()
    third["From"] = "x@example.org"
    third["Subject"] = "Third"
    third.set_content("The third message has no id.\n")
    return mbox([first, second, third])


def csv_file(rows: list[list[str]], delimiter: str = ",") -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter).writerows(rows)
    return buffer.getvalue().encode()


SALES = [
    ["product", "region", "amount"],
    ["Widget", "EU", "10"],
    ["Gadget", "US", "20"],
    ["Gizmo", "EU", "30"],
]


def ragged_csv() -> bytes:
    return b"name,age,city\nAnn,30,Paris\nBob,40,Rome,EXTRA\nCid,,\n,,\nDee,50\n"


def json_records() -> bytes:
    return json.dumps(
        [
            {"heading": "First", "body": "Alpha text", "meta": {"author": "Ann"}, "year": 2024},
            {"heading": "Second", "body": "Beta text", "year": 2023},
            {"heading": "No body here"},
        ]
    ).encode()


def jsonl_records() -> bytes:
    lines = [
        json.dumps({"heading": "One", "body": "First line text", "year": 2020}),
        "{this is not json",
        "",
        json.dumps({"heading": "Three", "body": "Third line text"}),
    ]
    return ("\n".join(lines) + "\n").encode()


def png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(buffer, format="PNG")
    return buffer.getvalue()


def zip_file(members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip whose member names are written exactly as given (ZipInfo keeps '../' and leading '/')."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = compression
            archive.writestr(info, data)
    return buffer.getvalue()


def zeros_zip(name: str, megabytes: int, *, level: int = 1) -> bytes:
    """A member of `megabytes` MiB of zeros, streamed into the zip so the test never holds them at once."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w", force_zip64=True) as stream:
            chunk = bytes(2**20)
            for _ in range(megabytes):
                stream.write(chunk)
    return buffer.getvalue()


def with_declared_size(archive: bytes, size: int) -> bytes:
    """The same single-member zip with its headers claiming `size` uncompressed bytes (a lying header)."""
    data = bytearray(archive)
    local = data.index(b"PK\x03\x04")
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, local + 22, size)
    struct.pack_into("<I", data, central + 24, size)
    return bytes(data)


def with_encryption_flag(archive: bytes) -> bytes:
    """The same single-member zip with the 'encrypted' bit set in its local and central headers."""
    data = bytearray(archive)
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature) + offset
        struct.pack_into("<H", data, at, struct.unpack_from("<H", data, at)[0] | 0x1)
    return bytes(data)


def docx_with_broken_xml() -> bytes:
    """A real DOCX whose main document part is cut in half (not well-formed XML any more)."""
    source = zipfile.ZipFile(io.BytesIO(docx_file()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as damaged:
        for info in source.infolist():
            data = source.read(info)
            damaged.writestr(info, data[: len(data) // 2] if info.filename == "word/document.xml" else data)
    return buffer.getvalue()
