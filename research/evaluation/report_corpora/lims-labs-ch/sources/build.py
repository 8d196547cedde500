"""Builds the lims-labs-ch corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/lims-labs-ch/sources/build.py
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
        HERE / "amsler-kestrel-lims-dach-2026.md",
        OUT / "amsler-kestrel-lims-dach-2026.pdf",
        "LIMS for Contract Testing Labs in DACH: Vendor Landscape 2026",
        "Amsler & Kestrel Research",
        dt.datetime(2026, 6, 22, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-wasserlabor-bodensee-2026-11.md",
        OUT / "deal-notes-wasserlabor-bodensee-2026-11.docx",
        "Deal notes: Wasserlabor Bodensee GmbH",
        "Jonas Feldmann",
        dt.datetime(2026, 11, 20, 16, 45, 0, tzinfo=UTC),
    )
