"""Builds the parking-ops-jp corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/parking-ops-jp/sources/build.py
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
        HERE / "yotsukado-parking-software-japan-2026-q3.md",
        OUT / "yotsukado-parking-software-japan-2026-q3.pdf",
        "Parking Operations Software in Japan: Vendor Landscape, Q3 2026",
        "Yotsukado Research Inc.",
        dt.datetime(2026, 9, 25, 1, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-hokuto-parking-2026-11.md",
        OUT / "deal-notes-hokuto-parking-2026-11.docx",
        "Deal notes: Hokuto Parking Co., Ltd. (Morioka)",
        "Daisuke Okabe",
        dt.datetime(2026, 11, 25, 8, 30, 0, tzinfo=UTC),
    )
