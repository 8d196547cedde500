"""Builds the salon-booking-ro corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/salon-booking-ro/sources/build.py
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
        HERE / "codrea-salon-software-ro-hu-2026-q3.md",
        OUT / "codrea-salon-software-ro-hu-2026-q3.pdf",
        "Salon and Barbershop Software in Romania and Hungary: Vendor Landscape, Q3 2026",
        "Codrea & Partners Research",
        dt.datetime(2026, 9, 24, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "note-oportunitate-ilinca-hair-studios-2026-11.md",
        OUT / "note-oportunitate-ilinca-hair-studios-2026-11.docx",
        "Note de oportunitate: Ilinca Hair Studios S.R.L.",
        "Bianca Stănescu",
        dt.datetime(2026, 11, 24, 16, 30, 0, tzinfo=UTC),
    )
