"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: python research/evaluation/report_corpora/caisse-restauration-fr/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
FIXED = dt.datetime(2026, 10, 16, 9, 0, 0, tzinfo=dt.timezone.utc)

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402

if __name__ == "__main__":
    build_pdf(
        HERE / "rocheplume-note-fourchelune-2026-09.md",
        OUT / "rocheplume-note-fourchelune-2026-09.pdf",
        "Fourchelune SAS : la caisse des indépendants passe à l'échelle",
        "Cabinet Rocheplume",
        dt.datetime(2026, 9, 22, 7, 30, 0, tzinfo=dt.timezone.utc),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "revue-affaire-brasseries-vauclerc-2026-10.md",
        OUT / "revue-affaire-brasseries-vauclerc-2026-10.docx",
        "Revue d'affaire : Brasseries Vauclerc",
        "Julien Hautbourg",
        FIXED,
    )
