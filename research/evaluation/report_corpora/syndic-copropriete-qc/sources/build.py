"""Builds the syndic-copropriete-qc corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/syndic-copropriete-qc/sources/build.py
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
        HERE / "lucarne-grille-tarifaire-2024.md",
        OUT / "lucarne-grille-tarifaire-2024.pdf",
        "Lucarne - Grille tarifaire 2024",
        "Lucarne Logiciels inc.",
        dt.datetime(2023, 12, 4, 14, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_pdf(
        HERE / "verance-note-marche-copropriete-2026-t2.md",
        OUT / "verance-note-marche-copropriete-2026-t2.pdf",
        "Logiciels de gestion de copropriété au Canada : note de marché, T2 2026",
        "Groupe Vérance Recherche",
        dt.datetime(2026, 7, 14, 12, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-haut-richelieu-2026-11.md",
        OUT / "notes-affaire-haut-richelieu-2026-11.docx",
        "Notes d'affaire : Gestion Immobilière Haut-Richelieu inc.",
        "Maxime Tardif-Pelletier",
        dt.datetime(2026, 11, 24, 21, 40, 0, tzinfo=UTC),
    )
