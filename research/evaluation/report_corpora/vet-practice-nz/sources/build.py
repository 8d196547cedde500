"""Builds the vet-practice-nz corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/vet-practice-nz/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
UTC = dt.UTC

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402


def fix_zip_dates(path: Path, when: dt.datetime) -> None:
    """Rewrites the Word file's zip entries with one fixed date: python-docx stamps them with the current time,
    so without this two builds differ byte for byte."""
    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info.filename)) for info in source.infolist()]
    stamp = when.timetuple()[:6]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in entries:
            fixed = zipfile.ZipInfo(info.filename, date_time=stamp)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o600 << 16
            target.writestr(fixed, data)


if __name__ == "__main__":
    build_pdf(
        HERE / "carrow-finch-anz-vet-pms-landscape-2026-h2.md",
        OUT / "carrow-finch-anz-vet-pms-landscape-2026-h2.pdf",
        "ANZ Veterinary Practice Software: Vendor Landscape, H2 2026",
        "Carrow & Finch Research",
        dt.datetime(2026, 8, 13, 22, 0, 0, tzinfo=UTC),
    )
    build_pdf(
        HERE / "kaikaro-price-list-2024.md",
        OUT / "kaikaro-price-list-2024.pdf",
        "Kaikaro Price List - New Zealand - effective 1 April 2024",
        "Kaikaro Software Limited",
        dt.datetime(2024, 3, 18, 1, 30, 0, tzinfo=UTC),
    )
    deal_notes_date = dt.datetime(2026, 11, 24, 3, 15, 0, tzinfo=UTC)
    build_docx(
        HERE / "deal-notes-harbourside-vets-2026-11.md",
        OUT / "deal-notes-harbourside-vets-2026-11.docx",
        "Deal notes: Harbourside Veterinary Group",
        "Liam O'Driscoll",
        deal_notes_date,
    )
    fix_zip_dates(OUT / "deal-notes-harbourside-vets-2026-11.docx", deal_notes_date)
