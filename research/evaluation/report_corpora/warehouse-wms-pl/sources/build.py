"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: python research/evaluation/report_corpora/warehouse-wms-pl/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402

if __name__ == "__main__":
    build_pdf(
        HERE / "hollerbach-kwadrolog-vendor-note-2026-09.md",
        OUT / "hollerbach-kwadrolog-vendor-note-2026-09.pdf",
        "Vendor Note: Kwadrolog sp. z o.o.",
        "Hollerbach & Quendt Research GmbH",
        dt.datetime(2026, 9, 21, 8, 30, 0, tzinfo=dt.timezone.utc),
    )
    build_pdf(
        HERE / "kwadrolog-cennik-2025.md",
        OUT / "kwadrolog-cennik-2025.pdf",
        "Kwadrolog Cennik 2025 / Price list 2025",
        "Kwadrolog sp. z o.o.",
        dt.datetime(2025, 2, 24, 11, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_docx(
        HERE / "deal-notes-bromar-2026-11.md",
        OUT / "deal-notes-bromar-2026-11.docx",
        "Deal notes: Bromar Dystrybucja S.A.",
        "Kyle Brandt",
        dt.datetime(2026, 11, 6, 17, 15, 0, tzinfo=dt.timezone.utc),
    )
