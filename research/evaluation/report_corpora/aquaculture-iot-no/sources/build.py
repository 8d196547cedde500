"""Builds the aquaculture-iot-no corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/aquaculture-iot-no/sources/build.py
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
        HERE / "fjellstad-moe-salmon-farm-platforms-2026-h2.md",
        OUT / "fjellstad-moe-salmon-farm-platforms-2026-h2.pdf",
        "Digital Operations Platforms for Salmon Farming: Vendor Landscape, H2 2026",
        "Fjellstad & Moe Research AS",
        dt.datetime(2026, 9, 15, 8, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "deal-note-sgeir-salmon-2026-11.md",
        OUT / "deal-note-sgeir-salmon-2026-11.docx",
        "Deal note: Sgeir Salmon Ltd (Shetland)",
        "Fiona MacLeod",
        dt.datetime(2026, 11, 24, 16, 10, 0, tzinfo=UTC),
    )
