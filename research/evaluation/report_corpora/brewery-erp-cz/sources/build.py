"""Builds the brewery-erp-cz corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/brewery-erp-cz/sources/build.py
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
        HERE / "centrope-brewery-erp-2026-q3.md",
        OUT / "centrope-brewery-erp-2026-q3.pdf",
        "Brewery ERP and Excise Software in Central Europe: Vendor Landscape, Q3 2026",
        "Centrope Analytics GmbH",
        dt.datetime(2026, 9, 22, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "gespraechsnotizen-pivovar-vranik-2026-11.md",
        OUT / "gespraechsnotizen-pivovar-vranik-2026-11.docx",
        "Gesprächsnotizen: Pivovar Vraník s.r.o. (Olomouc)",
        "Katrin Vogl",
        dt.datetime(2026, 11, 24, 15, 20, 0, tzinfo=UTC),
    )
