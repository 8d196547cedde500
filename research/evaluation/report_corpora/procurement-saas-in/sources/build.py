"""Builds the procurement-saas-in corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/procurement-saas-in/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
IST = dt.timezone(dt.timedelta(hours=5, minutes=30))

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402



def docx(name: str, title: str, author: str, when: dt.datetime) -> None:
    target = OUT / f"{name}.docx"
    build_docx(HERE / f"{name}.md", target, title, author, when)


if __name__ == "__main__":
    build_pdf(
        HERE / "samvida-price-list-fy25.md",
        OUT / "samvida-price-list-fy25.pdf",
        "Samvida Price List FY25",
        "Samvida Technologies Pvt. Ltd.",
        dt.datetime(2024, 3, 28, 11, 0, 0, tzinfo=IST),
        encoding="windows-1252",
    )
    build_pdf(
        HERE / "kaveri-research-s2p-india-midmarket-h2-2026.md",
        OUT / "kaveri-research-s2p-india-midmarket-h2-2026.pdf",
        "Market Note: Source-to-Pay for India's Mid-Market Manufacturers, H2 2026",
        "Kaveri Research",
        dt.datetime(2026, 10, 15, 9, 0, 0, tzinfo=IST),
        encoding="windows-1252",
    )
    docx(
        "battlecard-samvida-2026-10",
        "Battlecard: Samvida (Pune)",
        "Sneha Patil",
        dt.datetime(2026, 10, 27, 16, 20, 0, tzinfo=IST),
    )
    docx(
        "deal-notes-shirke-auto-2026-11",
        "Deal notes: Shirke Auto Components Pvt. Ltd.",
        "Karan Malhotra",
        dt.datetime(2026, 11, 26, 18, 45, 0, tzinfo=IST),
    )
