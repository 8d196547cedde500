"""Builds the agences-immobilieres-fr corpus's PDF and Word files from the Markdown beside this script,
deterministically.

Run from anywhere: python research/evaluation/report_corpora/agences-immobilieres-fr/sources/build.py
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
        HERE / "sextant-etudes-logiciels-transaction-2026-10.md",
        OUT / "sextant-etudes-logiciels-transaction-2026-10.pdf",
        "Logiciels de transaction pour agences immobilières : panorama 2026",
        "Sextant Études",
        dt.datetime(2026, 10, 14, 9, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-groupe-carrel-2026-11.md",
        OUT / "notes-affaire-groupe-carrel-2026-11.docx",
        "Notes d'affaire : Groupe Carrel Immobilier",
        "Margaux Delattre",
        dt.datetime(2026, 11, 26, 18, 15, 0, tzinfo=UTC),
    )
