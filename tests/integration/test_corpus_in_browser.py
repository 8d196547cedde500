"""A corpus's life in the browser (real Daphne): create, a taken name, rename, read Markdown safely, delete."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from research.corpora import ingestion, services
from research.models import Corpus, Membership, Run, RunStatus, UploadFile
from tests.support import processes
from tests.support.browser import chromium, screenshot_path

pytestmark = pytest.mark.services

HOSTILE_MARKDOWN = b"""# Quarterly *notes*

Read [the report](https://example.com/r) and **act** before June.

<script>document.title = "pwned"</script>
<img src="x" onerror="document.title = 'pwned'">

[click me](javascript:document.title='pwned') ![tracker](https://evil.example/pixel.png)
"""


def _ingested(owner: Membership, name: str, files: dict[str, bytes]) -> Corpus:
    corpus = services.corpus_create(actor=owner, name=name)
    upload = services.upload_create(
        actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in files.items()], enqueue=False
    )
    for item in UploadFile.objects.filter(upload=upload):
        ingestion.upload_file_ingest_safely(upload_file_id=item.pk)
    return corpus


def _log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", "a-long-password-1")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def _create_corpus(page: Page, base: str, slug: str, name: str) -> None:
    page.goto(f"{base}/w/{slug}/")
    page.fill("#id_name", name)
    page.click("text=Create corpus")


def test_a_person_creates_renames_reads_and_deletes_corpora(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in this thread
    ada = make_user("ada", password="a-long-password-1")
    workspace = make_workspace(ada, name="Market watch")
    owner = Membership.objects.get(user=ada)
    notes = _ingested(owner, "Notes", {"notes.md": HOSTILE_MARKDOWN, "plain.txt": b"Plain words."})
    markdown_doc = notes.documents.get(kind="markdown")
    finished = Run.objects.create(workspace=workspace, question="What do the notes say?", status=RunStatus.FINISHED)
    finished.corpora.add(notes)
    ws = workspace.slug
    with processes.daphne(process_env, tmp_path / "web.log") as (base, _), chromium() as browser:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []

        def record(message: ConsoleMessage) -> None:
            # 422/409/404 answers are expected here (and logged as failed loads); script and htmx errors are not.
            if message.type == "error" and not message.text.startswith("Failed to load resource"):
                errors.append(message.text)

        page.on("console", record)
        _log_in(page, base)

        # 1. Creating a corpus goes to its page (it used to nest the whole page, header and all, in the card).
        _create_corpus(page, base, ws, "Competitors")
        page.wait_for_url(f"{base}/w/{ws}/c/competitors/")
        expect(page.locator("h1")).to_have_text("Competitors")
        expect(page.locator("header.topbar")).to_have_count(1)

        # 2. A taken name, in another case, is refused in the card, with nothing created and no page nested.
        _create_corpus(page, base, ws, "  COMPETITORS ")
        expect(page.locator("#corpora .error")).to_have_text(
            "This workspace already has a corpus named “COMPETITORS”; choose another name."
        )
        expect(page.locator("header.topbar")).to_have_count(1)
        assert page.url == f"{base}/w/{ws}/"
        page.screenshot(path=str(screenshot_path("corpus-create-taken-name")), full_page=True)

        # Renaming: to a taken name is refused with the form open; to a free one keeps the URL.
        page.goto(f"{base}/w/{ws}/c/competitors/")
        page.click("text=Rename or delete this corpus")
        page.fill("#id_name", "notes")
        page.click("text=Save")
        expect(page.locator(".corpus-settings .error")).to_contain_text("already has a corpus named “notes”")
        page.fill("#id_name", "Competitors 2026")
        page.click("text=Save")
        expect(page.locator("h1")).to_have_text("Competitors 2026")
        expect(page.locator(".messages")).to_contain_text("Renamed to “Competitors 2026”.")
        assert page.url == f"{base}/w/{ws}/c/competitors/"

        # The Markdown viewer: rendered, sanitised; delete offered on the corpus's page, not on the run's viewer.
        page.goto(f"{base}/w/{ws}/c/{notes.slug}/d/{markdown_doc.doc_id}/")
        expect(page.locator(".chunk-text.markdown h1")).to_have_text("Quarterly notes")
        expect(page.locator(".chunk-text.markdown strong")).to_have_text("act")
        expect(page.locator(".chunk-text.markdown a[href='https://example.com/r']")).to_have_count(1)
        expect(page.locator(".chunk-text img")).to_have_count(0)
        expect(page.locator(".chunk-text a[href^='javascript']")).to_have_count(0)
        expect(page.locator(".chunk-text.markdown")).to_contain_text('<script>document.title = "pwned"</script>')
        expect(page.locator("button.danger")).to_have_text("Delete this document from the corpus")
        assert page.title() != "pwned"
        page.screenshot(path=str(screenshot_path("document-markdown")), full_page=True)
        run_viewer = f"{base}/w/{ws}/runs/{finished.pk}/d/{markdown_doc.doc_id}/"
        page.goto(run_viewer)
        expect(page.locator(".chunk-text.markdown h1")).to_have_text("Quarterly notes")
        expect(page.locator("button.danger")).to_have_count(0)

        # Deleting asks first, naming what goes; refused while a run uses the corpus; then done.
        queued = Run.objects.create(workspace=workspace, question="q", status=RunStatus.QUEUED)
        queued.corpora.add(notes)
        page.goto(f"{base}/w/{ws}/c/{notes.slug}/")
        page.click("text=Rename or delete this corpus")
        page.click("text=Delete this corpus…")
        expect(page.locator("h1")).to_have_text("Delete “Notes”?")
        expect(page.locator("main")).to_contain_text("2 documents (2 chunks), from both search indexes")
        page.screenshot(path=str(screenshot_path("corpus-delete-confirmation")), full_page=True)
        page.click("text=Delete “Notes” and its 2 documents")
        expect(page.locator("section [role=alert]")).to_contain_text(f"In use now by run {queued.pk} (queued)")
        page.screenshot(path=str(screenshot_path("corpus-delete-refused")), full_page=True)
        Run.objects.filter(pk=queued.pk).update(status=RunStatus.CANCELLED)
        page.click("text=Delete “Notes” and its 2 documents")
        page.wait_for_url(f"{base}/w/{ws}/")
        expect(page.locator(".messages")).to_contain_text("Deleted the corpus “Notes” and its 2 document(s).")
        expect(page.locator("#corpus-list")).not_to_contain_text("Notes")
        expect(page.locator("#corpus-list")).to_contain_text("Competitors 2026")

        # The finished run's link to a document of the deleted corpus says, in words, that it is gone.
        response = page.goto(run_viewer)
        assert response is not None
        assert response.status == 404
        expect(page.locator("h1")).to_have_text("This document is gone")
        page.screenshot(path=str(screenshot_path("run-document-gone")), full_page=True)
        page.goto(f"{base}/w/{ws}/runs/{finished.pk}/")
        expect(page.locator("h1")).to_be_visible()
    assert errors == []
    assert list(Corpus.objects.filter(workspace=workspace).values_list("name", flat=True)) == ["Competitors 2026"]
