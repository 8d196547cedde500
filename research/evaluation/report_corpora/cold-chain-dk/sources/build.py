"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: python research/evaluation/report_corpora/cold-chain-dk/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
FIXED = dt.datetime(2026, 10, 1, 9, 0, 0, tzinfo=dt.timezone.utc)

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402

if __name__ == "__main__":
    build_pdf(
        HERE / "orrestad-kuldevagt-profile-2026-q3.md",
        OUT / "orrestad-kuldevagt-profile-2026-q3.pdf",
        "Orrestad Insights vendor profile: Kuldevagt A/S",
        "Orrestad Insights",
        dt.datetime(2026, 9, 29, 7, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_pdf(
        HERE / "kuldevagt-prisliste-2025.md",
        OUT / "kuldevagt-prisliste-2025.pdf",
        "Kuldevagt Prisliste 2025",
        "Kuldevagt A/S",
        dt.datetime(2025, 1, 20, 10, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_docx(
        HERE / "deal-notes-medivarde-2026-10.md",
        OUT / "deal-notes-medivarde-2026-10.docx",
        "Deal notes: Medivarde Logistik ApS",
        "Lena Quast",
        FIXED,
    )
