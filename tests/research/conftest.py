"""Fixtures shared by the research app's tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from research.models import Corpus
from research.runs import services as runs


@pytest.fixture
def team(make_user, make_workspace, monkeypatch):  # type: ignore[no-untyped-def]
    """A workspace with an owner (ada), a viewer (vic) and a corpus; eve owns another workspace.
    Starting a run stores it without enqueueing it."""
    monkeypatch.setattr(runs, "run_enqueue", lambda run_id: None)
    ada, vic, eve = make_user(), make_user(), make_user()
    workspace = make_workspace(ada, members={vic: "viewer"})
    make_workspace(eve)
    corpus = Corpus.objects.create(workspace=workspace, name="Market", slug="market")
    return workspace, corpus, ada, vic, eve


@pytest.fixture(scope="session")
def eval_data() -> Path:
    """research/evaluation/qa_data (public MuSiQue and HotpotQA subsets, with their sources and licences)."""
    folder = Path(settings.BASE_DIR) / "research" / "evaluation" / "qa_data"
    assert (folder / "musique" / "musique_train100.json").is_file(), f"QA data missing under {folder}"
    return folder
