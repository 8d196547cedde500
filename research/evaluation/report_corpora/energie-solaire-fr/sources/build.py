"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic PDFs).

Run from anywhere: /work/main/.venv/bin/python research/evaluation/report_corpora/energie-solaire-fr/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402

if __name__ == "__main__":
    build_pdf(
        HERE / "note-laurentin-mas-pyrhelis-2026-09.md",
        OUT / "note-laurentin-mas-pyrhelis-2026-09.pdf",
        "Note d'entreprise : Pyrhélis SAS",
        "Laurentin & Mas Recherche",
        dt.datetime(2026, 9, 22, 8, 30, 0, tzinfo=dt.timezone.utc),
        encoding="windows-1252",
    )
    build_pdf(
        HERE / "grille-tarifaire-pyrhelis-2025.md",
        OUT / "grille-tarifaire-pyrhelis-2025.pdf",
        "Pyrhélis - Grille tarifaire 2025",
        "Pyrhélis SAS",
        dt.datetime(2024, 12, 16, 14, 0, 0, tzinfo=dt.timezone.utc),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "compte-rendu-affaire-soleil-doc-2026-11.md",
        OUT / "compte-rendu-affaire-soleil-doc-2026-11.docx",
        "Compte rendu d'affaire : Soleil d'Oc Exploitation",
        "Anaïs Delorme",
        dt.datetime(2026, 11, 19, 17, 15, 0, tzinfo=dt.timezone.utc),
    )
