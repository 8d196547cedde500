"""Builds the pharmacie-officine-ma corpus's PDF and Word files from the Markdown beside this script,
deterministically.

Run from anywhere: python research/evaluation/report_corpora/pharmacie-officine-ma/sources/build.py
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
        HERE / "tamarind-frontier-pharmacy-software-morocco-2026-h2.md",
        OUT / "tamarind-frontier-pharmacy-software-morocco-2026-h2.pdf",
        "Pharmacy Management Software in Morocco: Vendor Landscape, H2 2026",
        "Tamarind Frontier Research",
        dt.datetime(2026, 10, 5, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_pdf(
        HERE / "safranelle-grille-tarifaire-2024.md",
        OUT / "safranelle-grille-tarifaire-2024.pdf",
        "Safranelle - Grille tarifaire 2024",
        "Safranelle Santé SARL",
        dt.datetime(2023, 12, 11, 10, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-pharmasouss-2026-11.md",
        OUT / "notes-affaire-pharmasouss-2026-11.docx",
        "Notes d'affaire : Réseau PharmaSouss",
        "Hajar Lamrani",
        dt.datetime(2026, 11, 24, 17, 40, 0, tzinfo=UTC),
    )
