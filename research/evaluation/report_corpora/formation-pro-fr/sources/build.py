"""Builds the formation-pro-fr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/formation-pro-fr/sources/build.py
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
        HERE / "vauclair-panorama-logiciels-organismes-formation-2026.md",
        OUT / "vauclair-panorama-logiciels-organismes-formation-2026.pdf",
        "Logiciels de gestion pour organismes de formation : panorama 2026",
        "Vauclair Études",
        dt.datetime(2026, 6, 15, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-horizon-competences-2026-11.md",
        OUT / "notes-affaire-horizon-competences-2026-11.docx",
        "Notes d'affaire : Institut Horizon Compétences",
        "Camille Le Bihan",
        dt.datetime(2026, 11, 25, 16, 10, 0, tzinfo=UTC),
    )
