"""Builds the corpus's PDF and DOCX documents from the Markdown files beside this script (deterministic).

Run from anywhere: python research/evaluation/report_corpora/cybersecurite-sensibilisation-be/sources/build.py
"""

from __future__ import annotations

import datetime as dt
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "documents"
UTC = dt.UTC

sys.path.insert(0, str(HERE.parent.parent))  # report_corpora/: the shared builder
from corpus_build import build_docx, build_pdf  # noqa: E402


def fix_zip_times(path: Path, when: dt.datetime) -> None:
    """Rewrites a DOCX (a zip) with every entry dated ``when``, so that rebuilding gives the same bytes."""
    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info.filename)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in entries:
            fixed = zipfile.ZipInfo(info.filename, date_time=when.timetuple()[:6])
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = info.external_attr
            target.writestr(fixed, data)


if __name__ == "__main__":
    build_pdf(
        HERE / "leurrebois-grille-tarifaire-2025.md",
        OUT / "leurrebois-grille-tarifaire-2025.pdf",
        "Leurrebois - Grille tarifaire 2025",
        "Leurrebois SA",
        dt.datetime(2025, 1, 6, 8, 30, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    build_pdf(
        HERE / "altivue-fiche-leurrebois-2026-t3.md",
        OUT / "altivue-fiche-leurrebois-2026-t3.pdf",
        "Altivue Research - Fiche fournisseur : Leurrebois SA",
        "Altivue Research",
        dt.datetime(2026, 9, 24, 14, 0, 0, tzinfo=UTC),
        encoding="windows-1252",
    )
    notes_when = dt.datetime(2026, 10, 19, 16, 45, 0, tzinfo=UTC)
    build_docx(
        HERE / "notes-affaire-mutuelle-flandre-artois-2026-10.md",
        OUT / "notes-affaire-mutuelle-flandre-artois-2026-10.docx",
        "Notes d'affaire : Mutuelle Flandre-Artois",
        "Yanis Benali",
        notes_when,
    )
    fix_zip_times(OUT / "notes-affaire-mutuelle-flandre-artois-2026-10.docx", notes_when)
