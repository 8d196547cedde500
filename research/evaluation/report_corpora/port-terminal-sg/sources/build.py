"""Builds the port-terminal-sg corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/port-terminal-sg/sources/build.py
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
        HERE / "pelagos-terminal-software-sea-2026.md",
        OUT / "pelagos-terminal-software-sea-2026-06.pdf",
        "Terminal and Depot Operating Software: Southeast Asia Market Note 2026",
        "Pelagos Research Pte. Ltd.",
        dt.datetime(2026, 6, 22, 2, 0, 0, tzinfo=UTC),
    )
    build_pdf(
        HERE / "merlintide-price-list-2024.md",
        OUT / "merlintide-price-list-2024.pdf",
        "Merlintide Price List 2024 - Singapore",
        "Merlintide Systems Pte. Ltd.",
        dt.datetime(2023, 12, 14, 3, 30, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-kuala-serai-port-2026-11.md",
        OUT / "deal-notes-kuala-serai-port-2026-11.docx",
        "Deal notes: Kuala Serai Port Sdn. Bhd.",
        "Nurul Aisyah",
        dt.datetime(2026, 11, 24, 7, 45, 0, tzinfo=UTC),
    )
