"""Builds the marina-berths-hr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/marina-berths-hr/sources/build.py
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
        HERE / "maestral-marina-software-adriatic-2026-q3.md",
        OUT / "maestral-marina-software-adriatic-2026-q3.pdf",
        "Marina and Boatyard Software on the Adriatic and Ionian: Vendor Landscape, Q3 2026",
        "Maestral Analytics",
        dt.datetime(2026, 9, 30, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "biljeske-prilika-marina-brusnik-2026-11.md",
        OUT / "biljeske-prilika-marina-brusnik-2026-11.docx",
        "Bilješke o prilici: Marina Brusnik d.o.o.",
        "Lana Vidović",
        dt.datetime(2026, 11, 24, 15, 30, 0, tzinfo=UTC),
    )
