"""Builds the ehs-safety-fi corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/ehs-safety-fi/sources/build.py
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
        HERE / "lindfors-aho-ehs-nordics-2026.md",
        OUT / "lindfors-aho-ehs-nordics-2026.pdf",
        "EHS Software for Nordic Industry: Vendor Landscape 2026",
        "Lindfors & Aho Research",
        dt.datetime(2026, 9, 15, 7, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "kauppamuistio-haapakoski-sellu-2026-11.md",
        OUT / "kauppamuistio-haapakoski-sellu-2026-11.docx",
        "Kauppamuistio: Haapakoski Sellu Oy",
        "Mikko Rantanen",
        dt.datetime(2026, 11, 24, 15, 30, 0, tzinfo=UTC),
    )
