from __future__ import annotations

from pathlib import Path

from django.contrib.auth import authenticate

from research.demo.seed import demo_corpus_seed, demo_seed
from research.models import Corpus, Membership, Role


def test_it_creates_the_demo_login_once(db: None, tmp_path: Path) -> None:
    login_file = tmp_path / "demo_login.txt"
    first = demo_seed(login_file=login_file)
    second = demo_seed(login_file=login_file)
    assert first.created
    assert not second.created
    assert first.password == second.password
    assert first.workspace.pk == second.workspace.pk
    assert authenticate(username="demo", password=first.password) is not None
    assert Membership.objects.get(workspace=first.workspace, user__username="demo").role == Role.OWNER
    assert login_file.stat().st_mode & 0o777 == 0o600
    assert first.workspace.memberships.get().user.email == "demo@example.com"  # its digests land in DATA_DIR/mail


def test_the_demo_corpus_is_seeded_once_and_a_deleted_one_stays_deleted(db: None, tmp_path: Path) -> None:
    login = demo_seed(login_file=tmp_path / "demo_login.txt")
    marker = tmp_path / "demo_corpus_seeded"
    assert demo_corpus_seed(workspace=login.workspace, marker=marker, enqueue=False) is not None
    assert demo_corpus_seed(workspace=login.workspace, marker=marker, enqueue=False) is None
    Corpus.objects.filter(workspace=login.workspace).delete()
    assert demo_corpus_seed(workspace=login.workspace, marker=marker, enqueue=False) is None
    assert not Corpus.objects.filter(workspace=login.workspace).exists()
