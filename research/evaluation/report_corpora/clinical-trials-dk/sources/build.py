"""Builds the clinical-trials-dk corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/clinical-trials-dk/sources/build.py
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
        HERE / "nordhavn-insights-eclinical-nordics-h1-2026.md",
        OUT / "nordhavn-insights-eclinical-nordics-h1-2026.pdf",
        "eClinical Platforms in the Nordics and Benelux: Vendor Landscape H1 2026",
        "Nordhavn Insights ApS",
        dt.datetime(2026, 6, 30, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-note-kattegat-therapeutics-2026-11.md",
        OUT / "deal-note-kattegat-therapeutics-2026-11.docx",
        "Deal note: Kattegat Therapeutics A/S",
        "Johanna Ekberg",
        dt.datetime(2026, 11, 24, 16, 20, 0, tzinfo=UTC),
    )
