"""Builds the coworking-ops-kr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/coworking-ops-kr/sources/build.py
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
        HERE / "sarangbang-flex-office-software-korea-2026-q3.md",
        OUT / "sarangbang-flex-office-software-korea-2026-q3.pdf",
        "Flexible Office Operations Software in Korea: Vendor Landscape, Q3 2026",
        "Sarangbang Research Co., Ltd.",
        dt.datetime(2026, 9, 24, 1, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-gwangan-bay-offices-2026-11.md",
        OUT / "deal-notes-gwangan-bay-offices-2026-11.docx",
        "Deal notes: Gwangan Bay Offices Co., Ltd.",
        "Park Ji-hoon",
        dt.datetime(2026, 11, 24, 8, 30, 0, tzinfo=UTC),
    )
