"""Builds the skipass-ticketing-at corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/skipass-ticketing-at/sources/build.py
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
        HERE / "alpinmarkt-ski-ticketing-alps-2026-q2.md",
        OUT / "alpinmarkt-ski-ticketing-alps-2026-q2.pdf",
        "Ski Ticketing and Access Software in the Alps: Vendor Landscape, Q2 2026",
        "Alpinmarkt Research GmbH",
        dt.datetime(2026, 6, 30, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-bergbahnen-sonnkar-2026-11.md",
        OUT / "deal-notes-bergbahnen-sonnkar-2026-11.docx",
        "Deal Notes: Bergbahnen Sonnkar GmbH & Co KG",
        "Nina Gasser",
        dt.datetime(2026, 11, 24, 15, 40, 0, tzinfo=UTC),
    )
