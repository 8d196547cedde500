"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: python research/evaluation/report_corpora/fleet-telematics-ie/sources/build.py
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
        HERE / "ferrybank-skelligrove-profile-2026-09.md",
        OUT / "ferrybank-skelligrove-profile-2026-09.pdf",
        "Vendor profile: Skelligrove Telematics Limited",
        "Ferrybank Analytics",
        dt.datetime(2026, 9, 22, 8, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_pdf(
        HERE / "skelligrove-brochure-2024.md",
        OUT / "skelligrove-brochure-2024.pdf",
        "Skelligrove: fleet tracking, made in Cork (spring 2024 price guide)",
        "Skelligrove Telematics Limited",
        dt.datetime(2024, 3, 1, 9, 0, 0, tzinfo=dt.timezone.utc),
    )
    build_docx(
        HERE / "deal-review-ballyvourney-haulage-2026-10.md",
        OUT / "deal-review-ballyvourney-haulage-2026-10.docx",
        "Deal review: Ballyvourney Haulage Ltd",
        "Lorcan Devitt",
        FIXED,
    )
