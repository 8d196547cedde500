"""Upload through the browser into a real Celery worker, with live per-file progress over the WebSocket."""

from __future__ import annotations

from pathlib import Path

import pytest

from research.corpora import services
from research.models import Document, Membership, Stage, UploadFile
from tests.support import processes
from tests.support.browser import chromium, log_in_and_upload, screenshot_path

pytestmark = pytest.mark.services


def _all_final(corpus_id: int) -> bool:
    stages = set(UploadFile.objects.filter(upload__corpus_id=corpus_id).values_list("stage", flat=True))
    return bool(stages) and stages <= {Stage.INDEXED, Stage.FAILED}


def test_a_person_uploads_files_and_watches_them_ingested(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Playwright's sync API runs an event loop in this thread; the ORM reads below are plain blocking reads.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    ada = make_user("ada", password="a-long-password-1")
    workspace = make_workspace(ada, name="Market watch")
    corpus = services.corpus_create(actor=Membership.objects.get(user=ada), name="Competitors")
    files = {
        "globex.txt": b"Globex raised the Team plan to 49 dollars per seat in June 2026.",
        "initech.md": b"# Initech\n\nInitech sells vector search to banks in Europe.",
        "broken.pdf": b"%PDF-1.4 this is not really a PDF",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    port = processes.free_port()
    web_log, worker_log = tmp_path / "web.log", tmp_path / "worker.log"
    daphne = ["-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "context1_web.asgi:application"]
    web = processes.start(processes.python(*daphne), env=process_env, log=web_log)
    worker = processes.start(processes.python("-m", "worker"), env=process_env, log=worker_log)
    try:
        processes.wait_for(lambda: processes.port_open(port), timeout=60, what="daphne", process=web, log=web_log)
        processes.wait_for(
            lambda: " ready." in worker_log.read_text(), timeout=120, what="worker", process=worker, log=worker_log
        )
        base = f"http://127.0.0.1:{port}"
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            log_in_and_upload(
                page,
                base,
                user="ada",
                password="a-long-password-1",
                corpus_url=f"/w/{workspace.slug}/c/{corpus.slug}/",
                files=[tmp_path / name for name in files],
            )
            # No reload from here on: the stages arrive over the WebSocket (and unfinished rows poll).
            try:
                processes.wait_for(
                    lambda: _all_final(corpus.pk), timeout=240, what="ingestion", process=worker, log=worker_log
                )
                page.wait_for_selector('.stage[data-stage="failed"]', timeout=60_000)
                page.wait_for_function(
                    "document.querySelectorAll('.stage[data-stage=\"indexed\"]').length === 2", timeout=60_000
                )
            except Exception:
                page.screenshot(path=str(screenshot_path("upload-failure")), full_page=True)
                print("stages:", list(UploadFile.objects.values_list("name", "stage", "error")))
                print("page:", page.inner_text("#uploads"))
                print(processes.tail(worker_log, 60))
                raise
            text = page.inner_text("#uploads")
            page.screenshot(path=str(screenshot_path("upload-progress")), full_page=True)
            assert "globex.txt" in text
            assert "1 new or changed document, 0 unchanged, 1 chunk" in text
            page.reload()
            assert "2 documents" in page.inner_text("main")
            page.screenshot(path=str(screenshot_path("corpus-after-upload")), full_page=True)
    finally:
        processes.stop(worker)
        processes.stop(web)
    stages = dict(UploadFile.objects.values_list("name", "stage"))
    assert stages == {"globex.txt": Stage.INDEXED, "initech.md": Stage.INDEXED, "broken.pdf": Stage.FAILED}
    assert Document.objects.filter(corpus=corpus).count() == 2
