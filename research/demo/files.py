"""Where the demo corpus lies and which of its files are uploaded (no Django: evaluation tools read it too)."""

from __future__ import annotations

from pathlib import Path

DEMO_CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
DEMO_FORMAT_FOLDERS = ("html", "pdf", "email", "csv", "markdown")
DEMO_QUESTIONS = DEMO_CORPUS_DIR / "questions.jsonl"  # the question bank: questions, answers, supporting files


def demo_corpus_files() -> list[Path]:
    """The demo corpus as uploaded: every file of the format folders (not the PDF sources or the README)."""
    return sorted(
        path
        for folder in DEMO_FORMAT_FOLDERS
        for path in (DEMO_CORPUS_DIR / folder).glob("*")
        if path.is_file() and not path.name.startswith(".")
    )
