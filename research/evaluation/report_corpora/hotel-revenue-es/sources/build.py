"""Builds the hotel-revenue-es corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/hotel-revenue-es/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
UTC = dt.timezone.utc

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402

if __name__ == "__main__":
    build_pdf(
        HERE / "marejada-price-list-2025.md",
        OUT / "marejada-price-list-2025.pdf",
        "Marejada Tarifas 2025 / Price list 2025",
        "Marejada Revenue Technologies S.L.",
        dt.datetime(2025, 1, 28, 8, 30, 0, tzinfo=UTC),
    )
    build_pdf(
        HERE / "almadraba-portfolio-marejada-2026-h1.md",
        OUT / "almadraba-portfolio-marejada-2026-h1.pdf",
        "Almadraba Capital portfolio snapshot: Marejada Revenue Technologies S.L.",
        "Almadraba Capital SGEIC",
        dt.datetime(2026, 7, 20, 7, 0, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-sargazo-2026-11.md",
        OUT / "deal-notes-sargazo-2026-11.docx",
        "Deal notes: Hoteles Sargazo S.A.",
        "Owen Treharne",
        dt.datetime(2026, 11, 6, 17, 15, 0, tzinfo=UTC),
    )
