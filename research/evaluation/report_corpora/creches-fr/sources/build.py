"""Builds the creches-fr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/creches-fr/sources/build.py
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
        HERE / "hestia-panorama-logiciels-petite-enfance-2026.md",
        OUT / "hestia-panorama-logiciels-petite-enfance-2026.pdf",
        "Logiciels de gestion pour la petite enfance en France : panorama des éditeurs 2026",
        "Hestia Études",
        dt.datetime(2026, 9, 10, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-coccinelles-erdre-2026-11.md",
        OUT / "notes-affaire-coccinelles-erdre-2026-11.docx",
        "Notes d'affaire : Association Les Coccinelles de l'Erdre",
        "Élodie Kerhervé",
        dt.datetime(2026, 11, 24, 15, 40, 0, tzinfo=UTC),
    )
