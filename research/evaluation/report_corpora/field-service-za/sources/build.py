"""Builds the field-service-za corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/field-service-za/sources/build.py
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
        HERE / "protea-insight-field-service-za-2026-h2.md",
        OUT / "protea-insight-field-service-za-2026-h2.pdf",
        "Field Service Management Software in South Africa: Vendor Snapshot H2 2026",
        "Protea Insight (Pty) Ltd",
        dt.datetime(2026, 9, 15, 6, 0, 0, tzinfo=UTC),
    )
    build_docx(
        HERE / "deal-notes-sonpower-2026-11.md",
        OUT / "deal-notes-sonpower-2026-11.docx",
        "Deal notes: SonPower Installations",
        "Jaco Swanepoel",
        dt.datetime(2026, 11, 24, 14, 40, 0, tzinfo=UTC),
    )
