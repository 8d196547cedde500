"""Builds the freight-forwarding-mx corpus's PDF and Word files from the Markdown beside this script,
deterministically.

Run from anywhere: python research/evaluation/report_corpora/freight-forwarding-mx/sources/build.py
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
        HERE / "frontera-data-freight-software-2026-q3.md",
        OUT / "frontera-data-freight-software-mx-2026-q3.pdf",
        "Freight Forwarding and Customs Software, Mexico and the US Border: Vendor Landscape, Q3 2026",
        "Frontera Data Research",
        dt.datetime(2026, 9, 30, 15, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-consolidadora-huasteca-2026-11.md",
        OUT / "deal-notes-consolidadora-huasteca-2026-11.docx",
        "Deal notes: Consolidadora Huasteca, S.A. de C.V.",
        "Daniela Ochoa",
        dt.datetime(2026, 11, 23, 23, 10, 0, tzinfo=UTC),
    )
