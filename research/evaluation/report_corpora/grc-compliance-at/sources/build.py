"""Builds the grc-compliance-at corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/grc-compliance-at/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
UTC = dt.timezone.utc

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402

if __name__ == "__main__":
    build_pdf(
        HERE / "ostrander-vail-market-guide-nis2-dora-dach-2026-06.md",
        OUT / "ostrander-vail-market-guide-nis2-dora-dach-2026-06.pdf",
        "Market Guide: NIS2 and DORA Compliance Platforms, DACH 2026",
        "Ostrander & Vail Research",
        dt.datetime(2026, 6, 30, 8, 0, 0, tzinfo=UTC),
    )
    build_pdf(
        HERE / "zirbelmark-preisliste-2024.md",
        OUT / "zirbelmark-preisliste-2024.pdf",
        "Zirbelmark Preisliste 2024 / Price list 2024",
        "Zirbelmark GmbH",
        dt.datetime(2023, 12, 11, 9, 30, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-volksbank-isarwinkel-2026-11.md",
        OUT / "deal-notes-volksbank-isarwinkel-2026-11.docx",
        "Deal notes: Volksbank Isarwinkel eG",
        "Megan Albrecht",
        dt.datetime(2026, 11, 24, 17, 5, 0, tzinfo=UTC),
    )
