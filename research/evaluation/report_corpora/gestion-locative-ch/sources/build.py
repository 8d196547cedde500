"""Builds the gestion-locative-ch corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/gestion-locative-ch/sources/build.py
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
        HERE / "bolomey-steiner-gerance-suisse-2026.md",
        OUT / "bolomey-steiner-gerance-suisse-2026.pdf",
        "Logiciels de gérance immobilière en Suisse : panorama des éditeurs 2026",
        "Bolomey & Steiner Études SA",
        dt.datetime(2026, 10, 5, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-regie-des-tilleuls-2026-11.md",
        OUT / "notes-affaire-regie-des-tilleuls-2026-11.docx",
        "Notes d'affaire : Régie des Tilleuls SA",
        "Sophie Berthoud",
        dt.datetime(2026, 11, 24, 16, 30, 0, tzinfo=UTC),
    )
