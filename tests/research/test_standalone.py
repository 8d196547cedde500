"""The repository stands alone: no file refers to a path beside it (a clone has nothing there)."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BESIDE = "/".join(("..", "shared"))  # the folder beside a checkout, spelt so that this file does not name it


def test_no_tracked_file_refers_to_the_shared_folder_beside_the_repository() -> None:
    tracked = subprocess.run(
        ["git", "grep", "-l", "-I", "-F", "-e", BESIDE, "--", "."],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert tracked.returncode in (0, 1), tracked.stderr
    assert tracked.stdout.split() == []
