"""`manage.py seed_demo`: the demo password is printed once (by the launcher, at the first start) and kept in
DATA_DIR/demo_login.txt; the command itself says where, never the password."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.core.management import call_command


def _seed() -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_it_says_where_the_demo_login_is_kept_and_never_prints_the_password(
    db: None, tmp_path: Path, settings: Any
) -> None:
    settings.DATA_DIR = tmp_path
    (tmp_path / "demo_corpus_seeded").write_text("seeded\n")  # the demo corpus is left out of this test
    first = _seed()
    login_file = tmp_path / "demo_login.txt"
    password = login_file.read_text().splitlines()[1]
    assert first == f"Demo login created: username demo, password kept in {login_file}\n"
    second = _seed()
    assert second == f"Demo login exists: username demo, password kept in {login_file}\n"
    assert password not in first + second
    login_file.unlink()
    assert _seed() == (
        "Demo login exists: username demo; its password is not on file"
        " (reset it with `manage.py changepassword demo`)\n"
    )
