"""Builds the transport-sanitaire-fr corpus's PDF and Word files from the Markdown beside this script, deterministically.

Run from anywhere: python research/evaluation/report_corpora/transport-sanitaire-fr/sources/build.py
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
        HERE / "ardoise-observatoire-logiciels-transport-sanitaire-2026.md",
        OUT / "ardoise-observatoire-logiciels-transport-sanitaire-2026.pdf",
        "Observatoire 2026 des logiciels de transport sanitaire",
        "Ardoise Études",
        dt.datetime(2026, 9, 24, 8, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_docx(
        HERE / "note-affaire-ambulances-garonne-2026-11.md",
        OUT / "note-affaire-ambulances-garonne-2026-11.docx",
        "Note d'affaire : Ambulances Garonne",
        "Camille Darrieussecq",
        dt.datetime(2026, 11, 23, 18, 10, 0, tzinfo=UTC),
    )
