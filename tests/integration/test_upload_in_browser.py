"""Upload through the browser into a real Celery worker, and watch it live on the corpus and workspace pages; a file
dropped on the upload form's drop area goes the same way."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

from research.corpora import services
from research.models import Document, Membership, Stage, UploadFile
from tests.support import processes
from tests.support.browser import chromium, screenshot_path

pytestmark = pytest.mark.services

LONG = "\n\n".join(
    f"Paragraph {n}: Globex sells storage appliances to regional banks and insurers." * 30 for n in range(12)
)
FILES = {
    "globex.txt": b"Globex raised the Team plan to 49 dollars per seat in June 2026.",
    "initech.md": b"# Initech\n\nInitech sells vector search to banks in Europe.",
    "broken.pdf": b"%PDF-1.4 this is not really a PDF",
    "empty.txt": b"",
    "long.txt": LONG.encode(),
}
# a JSON Lines export whose fields are French: its row says which it was read from
DROPPED = '{"titre": "Hooli à Lisbonne", "texte": "Hooli a ouvert un bureau à Lisbonne en mai 2026."}\n'
FINAL = {
    "globex.txt": Stage.INDEXED,
    "initech.md": Stage.INDEXED,
    "broken.pdf": Stage.FAILED,
    "empty.txt": Stage.FAILED,
    "long.txt": Stage.FAILED,
    "hooli.jsonl": Stage.INDEXED,  # dropped on the drop area
}


def _all_final(corpus_id: int) -> bool:
    stages = set(UploadFile.objects.filter(upload__corpus_id=corpus_id).values_list("stage", flat=True))
    return bool(stages) and stages <= {Stage.INDEXED, Stage.FAILED}


def _page(context: BrowserContext, url: str, errors: list[str]) -> Page:
    """A page that records every htmx error the console reports (htmx logs e.g. `htmx:oobErrorNoTarget, #file-7`)."""
    page = context.new_page()

    def record(message: ConsoleMessage) -> None:
        if message.type == "error" and "htmx" in message.text:
            errors.append(f"{url}: {message.text}")

    page.on("console", record)
    page.goto(url)
    return page


def _drop_a_file(page: Page, name: str, text: str) -> None:
    """Drop a file on the upload form's drop area as a drag from the desktop does: a DataTransfer holding it."""
    transfer = page.evaluate_handle(
        "([name, text]) => { const t = new DataTransfer();"
        " t.items.add(new File([text], name, {type: 'text/plain'})); return t; }",
        [name, text],
    )
    for kind in ("dragenter", "dragover", "drop"):
        page.dispatch_event("[data-drop-zone]", kind, {"dataTransfer": transfer})


def _drop_and_look(page: Page) -> None:
    """The drop area at a desktop's and a phone's width, then a file dropped on it, ingested like a chosen one."""
    zone = page.locator("[data-drop-zone]")
    expect(zone).to_be_visible(timeout=5_000)
    expect(zone).to_contain_text("drop files here")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        zone.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_path(f"corpus-drop-area-{width}")))
    _drop_a_file(page, "hooli.jsonl", DROPPED)
    row = page.locator("#upload-list li.file:has-text('hooli.jsonl')")
    expect(row.locator(".stage[data-stage='indexed']")).to_have_count(1, timeout=120_000)
    expect(row).to_contain_text("text from 'texte', title from 'titre'")
    expect(page.locator("#corpus-summary")).to_contain_text("3 documents", timeout=30_000)
    page.click("text=How CSV and JSON files are read")
    page.screenshot(path=str(screenshot_path("corpus-after-drop-390")), full_page=True)


def test_a_person_uploads_files_and_every_open_page_follows_without_errors(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Playwright's sync API runs an event loop in this thread; the ORM reads below are plain blocking reads.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    ada = make_user("ada", password="a-long-password-1")
    workspace = make_workspace(ada, name="Market watch")
    owner = Membership.objects.get(user=ada)
    corpus = services.corpus_create(actor=owner, name="Competitors")
    other = services.corpus_create(actor=owner, name="Press")  # its page shows none of the uploaded rows
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    env = {**process_env, "MAX_FILE_CHUNKS": "4"}  # long.txt is about 10 chunks
    with processes.web_and_worker(env, tmp_path, ready=" ready.") as stack, chromium() as browser:
        base = stack.base
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        login = context.new_page()
        login.goto(f"{base}/accounts/login/")
        login.fill("#id_username", "ada")
        login.fill("#id_password", "a-long-password-1")
        login.click("button[type=submit]")
        login.wait_for_url(f"{base}/")
        errors: list[str] = []
        workspace_page = _page(context, f"{base}/w/{workspace.slug}/", errors)
        other_page = _page(context, f"{base}/w/{workspace.slug}/c/{other.slug}/", errors)
        page = _page(context, f"{base}/w/{workspace.slug}/c/{corpus.slug}/", errors)
        assert page.inner_text("#corpus-summary").startswith("0 documents")
        page.set_input_files("#id_upload", [str(tmp_path / name) for name in FILES])
        page.click("text=Upload and ingest")
        # The empty file fails alone, at once; the others are accepted (an empty file used to refuse them all).
        page.wait_for_selector("#upload-list li.file:has-text('empty.txt') .stage[data-stage='failed']")
        assert "the file is empty" in page.inner_text("#upload-list")
        # No reload from here on: the corpus page re-reads its parts after each notice and while files are busy.
        try:
            processes.wait_for(lambda: _all_final(corpus.pk), timeout=240, what="ingestion")
            # Locators, not wait_for_function: the pages' Content-Security-Policy forbids evaluating strings.
            expect(page.locator("#upload-list .stage[data-stage='indexed']")).to_have_count(2, timeout=60_000)
            expect(page.locator("#upload-list .stage[data-stage='failed']")).to_have_count(3, timeout=60_000)
            expect(page.locator("#corpus-summary")).to_contain_text("2 documents", timeout=30_000)
            workspace_page.wait_for_selector("#notices li[data-type='ingest']:has-text('long.txt')", timeout=30_000)
            expect(workspace_page.locator("#corpus-list")).to_contain_text("Competitors 2 documents", timeout=30_000)
        except Exception:
            page.screenshot(path=str(screenshot_path("upload-failure")), full_page=True)
            print("stages:", list(UploadFile.objects.values_list("name", "stage", "error")))
            print("page:", page.inner_text("main"))
            print(processes.tail(tmp_path / "worker.log", 60))
            raise
        uploads, documents = page.inner_text("#upload-list"), page.inner_text("#documents")
        page.screenshot(path=str(screenshot_path("corpus-live-after-upload")), full_page=True)
        workspace_page.screenshot(path=str(screenshot_path("workspace-live-activity")), full_page=True)
        activity = workspace_page.inner_text("#notices")
        other_text = other_page.inner_text("main")
        _drop_and_look(page)
        context.close()
    assert "1 new or changed document, 0 unchanged, 1 chunk" in uploads
    assert "over the limit of 4 per file (MAX_FILE_CHUNKS)" in uploads
    assert "Globex" in documents or "globex.txt" in documents
    assert "Initech" in documents
    assert "No documents yet" not in documents
    assert "Competitors · globex.txt Indexed" in activity
    assert "Competitors · empty.txt" not in activity  # it never reached a worker: it failed at the upload
    assert "long.txt Failed this file would be" in activity
    assert "Nothing under way" not in activity
    assert "globex.txt" not in other_text.split("Live activity")[0]  # the other corpus's page shows no foreign rows
    assert errors == []  # no htmx:oobErrorNoTarget (nor any htmx error) on any of the three pages
    assert dict(UploadFile.objects.values_list("name", "stage")) == FINAL
    assert Document.objects.filter(corpus=corpus).count() == 3
