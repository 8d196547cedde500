"""Builds the gestion-dechets-be corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/gestion-dechets-be/sources/build.py
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
        HERE / "vanhove-lemaire-logiciels-collecte-2026-t3.md",
        OUT / "vanhove-lemaire-logiciels-collecte-2026-t3.pdf",
        "Logiciels pour la collecte des déchets en Belgique et au Luxembourg : panorama des éditeurs 2026",
        "Vanhove & Lemaire Analyses",
        dt.datetime(2026, 9, 15, 8, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-idcf-2026-11.md",
        OUT / "notes-affaire-idcf-2026-11.docx",
        "Notes d'affaire : Intercommunale des Déchets du Condroz-Famenne (IDCF)",
        "Julien Materne",
        dt.datetime(2026, 11, 24, 16, 10, 0, tzinfo=UTC),
    )
