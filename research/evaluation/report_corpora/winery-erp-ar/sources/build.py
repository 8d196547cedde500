"""Builds the winery-erp-ar corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/winery-erp-ar/sources/build.py
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
        HERE / "altamira-winery-erp-southern-cone-2026-q3.md",
        OUT / "altamira-winery-erp-southern-cone-2026-q3.pdf",
        "Winery ERP and Traceability in the Southern Cone: Vendor Landscape, Q3 2026",
        "Altamira & Reyes Research",
        dt.datetime(2026, 9, 28, 12, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "nota-negocio-bodega-los-algarrobos-2026-11.md",
        OUT / "nota-negocio-bodega-los-algarrobos-2026-11.docx",
        "Nota de negocio: Bodega Los Algarrobos S.A.",
        "Catalina Rojas",
        dt.datetime(2026, 11, 25, 18, 20, 0, tzinfo=UTC),
    )
