"""Builds the dispatch-taxi-pt corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/dispatch-taxi-pt/sources/build.py
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
        HERE / "quadrante-dispatch-iberia-2026-q3.md",
        OUT / "quadrante-dispatch-iberia-2026-q3.pdf",
        "Taxi and Ride-Hail Dispatch Software in Iberia: Vendor Landscape, Q3 2026",
        "Quadrante Mobilidade Research",
        dt.datetime(2026, 9, 28, 9, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notas-oportunidad-radiotaxis-mondego-2026-11.md",
        OUT / "notas-oportunidad-radiotaxis-mondego-2026-11.docx",
        "Notas de oportunidad: Cooperativa Rádio Táxis do Mondego, CRL",
        "Lucía Ortega",
        dt.datetime(2026, 11, 25, 16, 10, 0, tzinfo=UTC),
    )
