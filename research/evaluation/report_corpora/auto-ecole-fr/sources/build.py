"""Builds the auto-ecole-fr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/auto-ecole-fr/sources/build.py
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
        HERE / "jalon-etudes-logiciels-auto-ecole-2026-10.md",
        OUT / "jalon-etudes-logiciels-auto-ecole-2026-10.pdf",
        "Logiciels de gestion pour auto-écoles : panorama 2026",
        "Jalon Études",
        dt.datetime(2026, 10, 14, 8, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-auto-ecoles-dauphine-2026-11.md",
        OUT / "notes-affaire-auto-ecoles-dauphine-2026-11.docx",
        "Notes d'affaire : Auto-Écoles du Dauphiné",
        "Camille Roux",
        dt.datetime(2026, 11, 25, 17, 40, 0, tzinfo=UTC),
    )
