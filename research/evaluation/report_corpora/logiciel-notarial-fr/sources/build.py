"""Builds the logiciel-notarial-fr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/logiciel-notarial-fr/sources/build.py
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
        HERE / "lexandre-etudes-logiciels-notariaux-2026-10.md",
        OUT / "lexandre-etudes-logiciels-notariaux-2026-10.pdf",
        "Logiciels de l'office notarial : panorama 2026",
        "Lexandre Études",
        dt.datetime(2026, 10, 20, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-notaires-saone-doubs-2026-11.md",
        OUT / "notes-affaire-notaires-saone-doubs-2026-11.docx",
        "Notes d'affaire : Notaires Saône-Doubs",
        "Julie Peyrot",
        dt.datetime(2026, 11, 24, 17, 5, 0, tzinfo=UTC),
    )
