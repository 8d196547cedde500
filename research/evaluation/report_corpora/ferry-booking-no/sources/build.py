"""Builds the ferry-booking-no corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/ferry-booking-no/sources/build.py
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
        HERE / "fjordlinje-prisliste-2024.md",
        OUT / "fjordlinje-prisliste-2024.pdf",
        "Fjordlinje prisliste 2024 / Price list 2024",
        "Fjordlinje Billett AS",
        dt.datetime(2023, 12, 4, 9, 0, 0, tzinfo=UTC),
    )
    build_pdf(
        HERE / "nordvik-maritime-fjordlinje-2026-09.md",
        OUT / "nordvik-maritime-fjordlinje-2026-09.pdf",
        "Nordvik Maritime Research: Vendor note, Fjordlinje Billett AS",
        "Henrik Solheim, Nordvik Maritime Research",
        dt.datetime(2026, 9, 14, 8, 0, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-hardangerfjord-snoggbat-2026-11.md",
        OUT / "deal-notes-hardangerfjord-snoggbat-2026-11.docx",
        "Deal notes: Hardangerfjord Snøggbåt AS",
        "Aino Virtanen",
        dt.datetime(2026, 11, 19, 15, 20, 0, tzinfo=UTC),
    )
