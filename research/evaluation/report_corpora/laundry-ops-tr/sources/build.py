"""Builds the laundry-ops-tr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/laundry-ops-tr/sources/build.py
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
        HERE / "anatolia-insight-laundry-software-turkiye-2026-q3.md",
        OUT / "anatolia-insight-laundry-software-turkiye-2026-q3.pdf",
        "Laundry Operations Software in Türkiye: Vendor Landscape, Q3 2026",
        "Anatolia Market Insight",
        dt.datetime(2026, 9, 24, 9, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "firsat-notlari-yakacik-camasirhane-2026-11.md",
        OUT / "firsat-notlari-yakacik-camasirhane-2026-11.docx",
        "Fırsat notları: Yakacık Endüstriyel Çamaşırhane A.Ş.",
        "Selin Aydemir",
        dt.datetime(2026, 11, 24, 17, 20, 0, tzinfo=UTC),
    )
