"""Builds the edtech-lms-se corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/edtech-lms-se/sources/build.py
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
        HERE / "tentavik-prislista-2024-25.md",
        OUT / "tentavik-prislista-2024-25.pdf",
        "Tentavik prislista 2024/25 / Price list 2024/25",
        "Tentavik AB",
        dt.datetime(2024, 6, 3, 9, 0, 0, tzinfo=UTC),
    )
    build_pdf(
        HERE / "skolinkop-norr-evaluation-tentavik-2026-06.md",
        OUT / "skolinkop-norr-evaluation-tentavik-2026-06.pdf",
        "Skolinköp Norr: supplier evaluation note, Tentavik AB",
        "Skolinköp Norr",
        dt.datetime(2026, 6, 12, 10, 0, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-norrvika-kommun-2026-11.md",
        OUT / "deal-notes-norrvika-kommun-2026-11.docx",
        "Deal notes: Norrvika kommun",
        "Bram Verhoeven",
        dt.datetime(2026, 11, 20, 16, 40, 0, tzinfo=UTC),
    )
