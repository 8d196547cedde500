"""Builds the festival-ticketing-uk corpus's PDF and Word files from the Markdown beside this script,
deterministically.

Run from anywhere: python research/evaluation/report_corpora/festival-ticketing-uk/sources/build.py
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
        HERE / "halden-rowe-festival-ticketing-uk-ie-2026-h2.md",
        OUT / "halden-rowe-festival-ticketing-uk-ie-2026-h2.pdf",
        "Festival and Outdoor Event Ticketing Platforms: UK & Ireland, H2 2026",
        "Halden Rowe Research",
        dt.datetime(2026, 9, 15, 9, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-hollowmere-festival-2026-11.md",
        OUT / "deal-notes-hollowmere-festival-2026-11.docx",
        "Deal notes: Hollowmere Festival",
        "Niamh Gallagher",
        dt.datetime(2026, 11, 20, 16, 45, 0, tzinfo=UTC),
    )
