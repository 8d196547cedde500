"""Builds the dental-dso-us corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/dental-dso-us/sources/build.py
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
        HERE / "halvorsen-dso-software-landscape-2026-q3.md",
        OUT / "halvorsen-dso-software-landscape-2026-q3.pdf",
        "DSO Practice-Management and RCM Software: Vendor Landscape, Q3 2026",
        "Halvorsen & Pike Research",
        dt.datetime(2026, 8, 18, 14, 0, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-lakeshore-dental-partners-2026-11.md",
        OUT / "deal-notes-lakeshore-dental-partners-2026-11.docx",
        "Deal notes: Lakeshore Dental Partners",
        "Jordan Pell",
        dt.datetime(2026, 11, 19, 22, 30, 0, tzinfo=UTC),
    )
