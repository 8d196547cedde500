"""Builds the vet-practice-nz corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/vet-practice-nz/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
UTC = dt.UTC

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402



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
