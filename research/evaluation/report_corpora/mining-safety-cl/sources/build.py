"""Builds the mining-safety-cl corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/mining-safety-cl/sources/build.py
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
        HERE / "altiplano-underground-safety-andes-2026.md",
        OUT / "altiplano-underground-safety-andes-2026.pdf",
        "Underground Mine Safety Technology in the Andes: Vendor Landscape 2026",
        "Altiplano Mining Insights",
        dt.datetime(2026, 9, 15, 10, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notas-oportunidad-quebrada-honda-2026-11.md",
        OUT / "notas-oportunidad-quebrada-honda-2026-11.docx",
        "Opportunity notes: Compañía Minera Quebrada Honda S.A.",
        "Diego Fuenzalida",
        dt.datetime(2026, 11, 24, 18, 30, 0, tzinfo=UTC),
    )
