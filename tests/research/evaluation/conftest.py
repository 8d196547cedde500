"""Fixtures for evaluation tests: the shared public QA data beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings


@pytest.fixture(scope="session")
def eval_data() -> Path:
    """``../shared/eval_data`` (MuSiQue and HotpotQA subsets); the tests fail, never skip, without it."""
    folder = Path(settings.BASE_DIR).parent / "shared" / "eval_data"
    assert (folder / "musique" / "musique_train100.json").is_file(), f"shared QA data missing under {folder}"
    return folder
