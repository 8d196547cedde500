"""Builds the hoa-management-us corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/hoa-management-us/sources/build.py
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
        HERE / "kestrel-ridge-hoa-software-landscape-2026.md",
        OUT / "kestrel-ridge-hoa-software-landscape-2026.pdf",
        "Community Association Management Software: US Vendor Landscape 2026",
        "Kestrel Ridge Research",
        dt.datetime(2026, 9, 15, 15, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-saddleback-community-partners-2026-11.md",
        OUT / "deal-notes-saddleback-community-partners-2026-11.docx",
        "Deal notes: Saddleback Community Partners LLC",
        "Kayla Ostrander",
        dt.datetime(2026, 11, 20, 23, 10, 0, tzinfo=UTC),
    )
