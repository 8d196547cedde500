"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: python research/evaluation/report_corpora/insurtech-claims-it/sources/build.py
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
        HERE / "ort-research-stimalba-profile-2026-09.md",
        OUT / "ort-research-stimalba-profile-2026-09.pdf",
        "Vendor Profile: Stimalba S.r.l.",
        "ORT Research - Osservatorio Rischio & Tecnologia",
        dt.datetime(2026, 9, 30, 9, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_pdf(
        HERE / "stimalba-listino-2025.md",
        OUT / "stimalba-listino-2025.pdf",
        "Stimalba Listino prezzi 2025 / Price list 2025",
        "Stimalba S.r.l.",
        dt.datetime(2024, 12, 16, 10, 30, 0, tzinfo=dt.timezone.utc),
    )
    build_docx(
        HERE / "deal-notes-mutua-cantabrica-2026-11.md",
        OUT / "deal-notes-mutua-cantabrica-2026-11.docx",
        "Deal notes: Mutua Cantábrica de Seguros",
        "Tom Ashdown",
        dt.datetime(2026, 11, 9, 16, 40, 0, tzinfo=dt.timezone.utc),
    )
