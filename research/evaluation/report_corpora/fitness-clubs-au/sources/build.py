"""Builds the fitness-clubs-au corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/fitness-clubs-au/sources/build.py
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
        HERE / "plateloop-rate-card-fy25.md",
        OUT / "plateloop-rate-card-fy25.pdf",
        "Plateloop rate card, FY25",
        "Plateloop Technologies Pty Ltd",
        dt.datetime(2024, 6, 20, 1, 30, 0, tzinfo=UTC),
    )
    build_pdf(
        HERE / "kestrel-bligh-club-software-anz-2026-h2.md",
        OUT / "kestrel-bligh-club-software-anz-2026-h2.pdf",
        "Club Management Software in Australia and New Zealand, H2 2026",
        "Kestrel & Bligh Research",
        dt.datetime(2026, 9, 14, 23, 0, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-ironbark-247-fitness-2026-11.md",
        OUT / "deal-notes-ironbark-247-fitness-2026-11.docx",
        "Deal notes: Ironbark 24/7 Fitness",
        "Mereana Walsh",
        dt.datetime(2026, 11, 20, 5, 15, 0, tzinfo=UTC),
    )
