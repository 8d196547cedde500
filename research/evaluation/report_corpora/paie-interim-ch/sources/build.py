"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic PDFs).

Run from anywhere: /work/main/.venv/bin/python research/evaluation/report_corpora/paie-interim-ch/sources/build.py
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
        HERE / "note-lanfranchi-rey-missival-2026-10.md",
        OUT / "note-lanfranchi-rey-missival-2026-10.pdf",
        "Note d'éditeur : Missival SA",
        "Lanfranchi & Rey Études Sàrl",
        dt.datetime(2026, 10, 6, 9, 0, 0, tzinfo=dt.timezone.utc),
        encoding="windows-1252",
    )
    build_pdf(
        HERE / "grille-tarifaire-missival-2025.md",
        OUT / "grille-tarifaire-missival-2025.pdf",
        "Missival - Grille tarifaire 2025",
        "Missival SA",
        dt.datetime(2024, 12, 9, 10, 30, 0, tzinfo=dt.timezone.utc),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-alpes-interim-2026-11.md",
        OUT / "notes-affaire-alpes-interim-2026-11.docx",
        "Notes d'affaire : Alpes Intérim Services",
        "Julien Mercadier",
        dt.datetime(2026, 11, 12, 17, 40, 0, tzinfo=dt.timezone.utc),
    )
