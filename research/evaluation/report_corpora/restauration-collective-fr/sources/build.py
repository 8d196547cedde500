"""Builds the restauration-collective-fr corpus's PDF and Word files from the Markdown beside this script,
deterministically.

Run from anywhere: python research/evaluation/report_corpora/restauration-collective-fr/sources/build.py
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
        HERE / "arvel-panorama-logiciels-restauration-collective-2026.md",
        OUT / "arvel-panorama-logiciels-restauration-collective-2026.pdf",
        "Panorama 2026 des logiciels de restauration collective",
        "Arvel Conseil",
        dt.datetime(2026, 10, 6, 8, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "note-affaire-sivu-estuaire-sillon-2026-11.md",
        OUT / "note-affaire-sivu-estuaire-sillon-2026-11.docx",
        "Note d'affaire : SIVU de restauration Estuaire-Sillon",
        "Camille Berthier",
        dt.datetime(2026, 11, 25, 16, 20, 0, tzinfo=UTC),
    )
