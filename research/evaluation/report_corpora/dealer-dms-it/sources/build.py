"""Builds the dealer-dms-it corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/dealer-dms-it/sources/build.py
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
        HERE / "vallauri-stein-dms-southern-europe-2026-q3.md",
        OUT / "vallauri-stein-dms-southern-europe-2026-q3.pdf",
        "Dealer Management Systems in Southern Europe: Vendor Landscape, Q3 2026",
        "Vallauri & Stein Research",
        dt.datetime(2026, 9, 22, 9, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "note-trattativa-autogruppo-estense-2026-11.md",
        OUT / "note-trattativa-autogruppo-estense-2026-11.docx",
        "Note trattativa: Autogruppo Estense S.p.A.",
        "Giulia Ferrandi",
        dt.datetime(2026, 11, 24, 17, 45, 0, tzinfo=UTC),
    )
