"""Builds the school-transport-br corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/school-transport-br/sources/build.py
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
        HERE / "panorama-transporte-escolar-2026-q3.md",
        OUT / "panorama-transporte-escolar-2026-q3.pdf",
        "School Transport Software in Brazil and Chile: Vendor Panorama, Q3 2026",
        "Quórum Inteligência de Mercado",
        dt.datetime(2026, 9, 29, 12, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notas-negociacao-ribeirao-das-araras-2026-11.md",
        OUT / "notas-negociacao-ribeirao-das-araras-2026-11.docx",
        "Notas de negociação: Prefeitura Municipal de Ribeirão das Araras (PR)",
        "Camila Ferraz",
        dt.datetime(2026, 11, 24, 18, 5, 0, tzinfo=UTC),
    )
