"""Builds the maintenance-ascenseurs-fr corpus's PDF and Word files from the Markdown beside this script,
deterministically.

Run from anywhere: python research/evaluation/report_corpora/maintenance-ascenseurs-fr/sources/build.py
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
        HERE / "verticalis-logiciels-maintenance-ascenseurs-2026-10.md",
        OUT / "verticalis-logiciels-maintenance-ascenseurs-2026-10.pdf",
        "Logiciels de maintenance d'ascenseurs : panorama 2026",
        "Verticalis Conseil",
        dt.datetime(2026, 10, 12, 8, 15, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "notes-affaire-ascenseurs-rhone-durance-2026-11.md",
        OUT / "notes-affaire-ascenseurs-rhone-durance-2026-11.docx",
        "Notes d'affaire : Ascenseurs Rhône-Durance",
        "Maxime Guérin",
        dt.datetime(2026, 11, 24, 17, 20, 0, tzinfo=UTC),
    )
