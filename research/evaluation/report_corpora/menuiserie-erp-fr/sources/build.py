"""Builds the menuiserie-erp-fr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/menuiserie-erp-fr/sources/build.py
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
        HERE / "varlope-note-copeaux-2026-10.md",
        OUT / "varlope-note-copeaux-2026-10.pdf",
        "Cabinet Varlope Études : Copeaux Logiciels SAS",
        "Cabinet Varlope Études",
        dt.datetime(2026, 10, 19, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_pdf(
        HERE / "copeaux-grille-tarifaire-2025.md",
        OUT / "copeaux-grille-tarifaire-2025.pdf",
        "Copeaux : grille tarifaire 2025",
        "Copeaux Logiciels SAS",
        dt.datetime(2024, 12, 9, 10, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-menuiserie-brechon-2026-11.md",
        OUT / "notes-affaire-menuiserie-brechon-2026-11.docx",
        "Notes d'affaire : Menuiserie Bréchon & Fils",
        "Yann Le Goff",
        dt.datetime(2026, 11, 24, 17, 30, 0, tzinfo=UTC),
    )
