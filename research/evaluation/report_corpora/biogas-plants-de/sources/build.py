"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: python research/evaluation/report_corpora/biogas-plants-de/sources/build.py
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
        HERE / "kessler-brandt-biogas-software-2026-q3.md",
        OUT / "kessler-brandt-biogas-software-2026-q3.pdf",
        "Biogas Plant Software in DACH and Italy: Vendor Landscape Q3 2026",
        "Kessler & Brandt Research GmbH",
        dt.datetime(2026, 9, 28, 8, 0, 0, tzinfo=UTC),
    )
    build_pdf(
        HERE / "gaerwerk-preisliste-2025.md",
        OUT / "gaerwerk-preisliste-2025.pdf",
        "Gärwerk Preisliste 2025",
        "Gärwerk Anlagensoftware GmbH",
        dt.datetime(2024, 12, 16, 10, 0, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-emsland-bioenergie-2026-11.md",
        OUT / "deal-notes-emsland-bioenergie-2026-11.docx",
        "Deal notes: Emsland BioEnergie Verbund GmbH & Co. KG",
        "Floor Hendriks",
        dt.datetime(2026, 11, 24, 15, 30, 0, tzinfo=UTC),
    )
