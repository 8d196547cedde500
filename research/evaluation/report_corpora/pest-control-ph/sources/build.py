"""Builds the pest-control-ph corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/pest-control-ph/sources/build.py
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
        HERE / "lakbay-insights-pest-control-fsm-sea-2026.md",
        OUT / "lakbay-insights-pest-control-fsm-sea-2026.pdf",
        "Field-Service Software for Pest Control in Southeast Asia: Vendor Landscape 2026",
        "Lakbay Insights",
        dt.datetime(2026, 8, 20, 1, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-luntian-pest-solutions-2026-11.md",
        OUT / "deal-notes-luntian-pest-solutions-2026-11.docx",
        "Deal notes: Luntian Pest Solutions, Inc.",
        "Bea Santiago",
        dt.datetime(2026, 11, 24, 8, 45, 0, tzinfo=UTC),
    )
