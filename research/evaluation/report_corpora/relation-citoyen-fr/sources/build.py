"""Builds the relation-citoyen-fr corpus's PDF and Word files from the Markdown beside this script,
deterministically (fixed dates; Windows-1252 core fonts for the PDF's euro signs and accents).

Run from anywhere: python research/evaluation/report_corpora/relation-citoyen-fr/sources/build.py
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
        HERE / "helianthe-observatoire-relation-citoyen-2026-t3.md",
        OUT / "helianthe-observatoire-relation-citoyen-2026-t3.pdf",
        "Observatoire des logiciels de relation citoyen, 3e trimestre 2026",
        "Hélianthe Études",
        dt.datetime(2026, 9, 8, 7, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-ville-de-montcalvel-2026-11.md",
        OUT / "notes-affaire-ville-de-montcalvel-2026-11.docx",
        "Notes d'affaire : Ville de Montcalvel",
        "Léa Fabre",
        dt.datetime(2026, 11, 24, 16, 45, 0, tzinfo=UTC),
    )
