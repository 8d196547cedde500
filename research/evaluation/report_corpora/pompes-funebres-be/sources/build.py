"""Builds the pompes-funebres-be corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/pompes-funebres-be/sources/build.py
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
        HERE / "maes-dubois-logiciels-funeraires-2026-t3.md",
        OUT / "maes-dubois-logiciels-funeraires-2026-t3.pdf",
        "Logiciels pour le secteur funéraire au Benelux et dans le nord de la France, T3 2026",
        "Maes & Dubois Research",
        dt.datetime(2026, 9, 29, 8, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "note-affaire-funerailles-marechal-2026-11.md",
        OUT / "note-affaire-funerailles-marechal-2026-11.docx",
        "Note d'affaire : Funérailles Maréchal & Fils SRL",
        "Camille Vandenbussche",
        dt.datetime(2026, 11, 24, 16, 20, 0, tzinfo=UTC),
    )
