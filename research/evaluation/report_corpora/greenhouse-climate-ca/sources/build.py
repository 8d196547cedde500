"""Builds the greenhouse-climate-ca corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/greenhouse-climate-ca/sources/build.py
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
        HERE / "northgate-greenhouse-software-landscape-2026-q3.md",
        OUT / "northgate-greenhouse-software-landscape-2026-q3.pdf",
        "Greenhouse Climate and Crop Software, North America and the Netherlands: Vendor Landscape, Q3 2026",
        "Northgate Horticultural Insight",
        dt.datetime(2026, 9, 15, 13, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "dealnotes-talbot-trail-produce-2026-11.md",
        OUT / "dealnotes-talbot-trail-produce-2026-11.docx",
        "Dealnotities: Talbot Trail Produce Inc.",
        "Sanne de Groot",
        dt.datetime(2026, 11, 24, 21, 15, 0, tzinfo=UTC),
    )
