"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: python research/evaluation/report_corpora/dental-lab-pt/sources/build.py
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
        HERE / "tordesillas-ceramira-note-2026-09.md",
        OUT / "tordesillas-ceramira-note-2026-09.pdf",
        "Private company note: Ceramira Software, Lda.",
        "Tordesillas Equity Research",
        dt.datetime(2026, 9, 22, 8, 0, 0, tzinfo=dt.timezone.utc),
        encoding="windows-1252",
    )
    build_pdf(
        HERE / "ceramira-tabela-precos-2024.md",
        OUT / "ceramira-tabela-precos-2024.pdf",
        "Ceramira Tabela de precos 2024 / Price list 2024",
        "Ceramira Software, Lda.",
        dt.datetime(2023, 12, 11, 9, 15, 0, tzinfo=dt.timezone.utc),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-notes-grupo-albufera-2026-11.md",
        OUT / "deal-notes-grupo-albufera-2026-11.docx",
        "Deal notes: Grupo Dental Albufera S.L.",
        "Jonas Kjærgaard",
        dt.datetime(2026, 11, 12, 15, 20, 0, tzinfo=dt.timezone.utc),
    )
