"""`manage.py ingest --sync` with no Redis listening: it says once that live progress is off and ingests everything."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from research.models import Corpus, Document, Stage, UploadFile
from tests.support import processes

pytestmark = pytest.mark.services


def test_it_says_once_that_live_progress_is_off_and_goes_on(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path
) -> None:
    workspace = make_workspace(make_user("ada"))
    for name in ("a.txt", "b.txt", "c.md"):
        (tmp_path / name).write_text(f"# {name}\n\nSome text about {name}.")
    env = {**process_env, "REDIS_URL": f"redis://127.0.0.1:{processes.free_port()}/0"}  # nothing listens there
    argv = [*processes.python("manage.py", "ingest", str(tmp_path)), "--workspace", workspace.slug, "--corpus", "Docs"]
    command = [*argv, "--create", "--sync"]
    done = subprocess.run(
        command, check=False, cwd=processes.REPO, env=env, capture_output=True, text=True, timeout=180
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert output.count("live progress is off: cannot reach the channel layer (ConnectionError") == 1, output
    assert "Traceback" not in output
    assert output.count("ConnectionError") == 1
    corpus = Corpus.objects.get(workspace=workspace, name="Docs")
    assert set(UploadFile.objects.filter(upload__corpus=corpus).values_list("stage", flat=True)) == {Stage.INDEXED}
    assert Document.objects.filter(corpus=corpus).count() == 3
    assert "BM25 index refreshed" in output
