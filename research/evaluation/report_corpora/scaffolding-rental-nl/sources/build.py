"""Builds the scaffolding-rental-nl corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/scaffolding-rental-nl/sources/build.py
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
        HERE / "van-til-brandt-verhuursoftware-benelux-nrw-2026.md",
        OUT / "van-til-brandt-verhuursoftware-benelux-nrw-2026.pdf",
        "Rental and Yard Software in the Benelux and NRW: Vendor Overview 2026",
        "Van Til & Brandt Research",
        dt.datetime(2026, 10, 14, 8, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "dealnotitie-verhoeven-materieelverhuur-2026-11.md",
        OUT / "dealnotitie-verhoeven-materieelverhuur-2026-11.docx",
        "Dealnotitie: Verhoeven Materieelverhuur B.V.",
        "Jeroen Maas",
        dt.datetime(2026, 11, 24, 16, 10, 0, tzinfo=UTC),
    )
