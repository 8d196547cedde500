"""Web sources as a member meets them, in headless Chromium against a real Daphne and a real Celery worker, with a
loopback site as the web (a SearXNG-compatible search on it; the only allowed private address).

The workspace makes the web a default of new runs; a run over a corpus that lacks the answer searches the web,
fetches the first results (shown live with their outcome), and its answer cites the fetched page by address and
fetch date; on the corpus page a page is added by address and a sitemap's pages by their sitemap, and an address
that redirects to a private one is refused with the reason. Screenshots are in test-artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from research.corpora import services
from research.models import Corpus, CorpusKind, Membership, Run, RunStatus, WebPage
from tests.support import processes
from tests.support.browser import chromium, log_in, screenshot_path
from tests.support.corpora import ingest_with_worker
from tests.support.web_site import Site, web_site

pytestmark = pytest.mark.services
PASSWORD = "a-long-password-1"
QUESTION = "Where did Halvorix open its first European office?"
NOTES = b"Globex raised its Team plan to 59 dollars in May."


def _default(page: Page, base: str, slug: str) -> None:
    page.goto(f"{base}/w/{slug}/")
    expect(page.locator("#web-default")).to_contain_text("search this workspace's corpora only")
    page.click("#web-default button")
    expect(page.locator("#web-default")).to_contain_text("search the web too")


def _run(page: Page, base: str, slug: str, site: Site) -> None:
    page.goto(f"{base}/w/{slug}/runs/")
    expect(page.locator("#id_web")).to_be_checked()  # the workspace's default
    page.fill("#id_question", QUESTION)
    page.click("text=Start run")
    page.wait_for_url(f"{base}/w/{slug}/runs/*/")
    expect(page.locator("#run-status")).to_contain_text("Finished", timeout=120_000)
    expect(page.locator("main")).to_contain_text("with web sources")
    expect(page.locator("#rollouts .call[data-tool='web_search']").first).to_contain_text("web result")
    expect(page.locator("#rollouts .page-outcome[data-outcome='fetched']").first).to_be_visible()
    answer = page.inner_text("#answer")
    assert "Berlin" in answer
    assert "IGNORE ALL PREVIOUS INSTRUCTIONS" not in answer  # the injected order is quoted nowhere
    page.screenshot(path=str(screenshot_path("web-run")), full_page=True)
    page.locator("#answer .chip").first.click()
    page.wait_for_selector("mark.quote")
    assert site.url("/news/berlin.html") in page.inner_text("main")  # the document's address, shown
    page.screenshot(path=str(screenshot_path("web-run-cited-page")), full_page=True)


def _add_pages(page: Page, base: str, slug: str, site: Site, corpus: Corpus) -> None:
    page.goto(f"{base}/w/{slug}/c/{corpus.slug}/")
    page.fill("#web-pages input[name=url]", site.url("/to-private"))
    page.click("#web-pages button:has-text('Add the page')")
    expect(page.locator("#web-pages [data-outcome='refused']")).to_be_visible(timeout=60_000)
    expect(page.locator("#web-pages")).to_contain_text("10.20.30.40, a private, local or reserved address")
    page.fill("#web-pages input[name=url]", site.url("/sitemap.xml"))
    page.check("#web-pages input[name=sitemap]")
    page.fill("#web-pages input[name=limit]", "2")
    page.click("#web-pages button:has-text('Add the page')")
    expect(page.locator("#web-pages [data-outcome='sitemap']")).to_contain_text("sitemap", timeout=60_000)
    expect(page.locator("#web-pages [data-outcome='fetched']")).to_have_count(2, timeout=90_000)
    expect(page.locator("#documents")).to_contain_text("Tavelnor", timeout=30_000)  # the sitemap's PDF
    page.screenshot(path=str(screenshot_path("web-pages-added")), full_page=True)


def test_web_sources_in_the_browser(process_env, make_user, make_workspace, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread; plain ORM calls
    ada = make_user("ada", password=PASSWORD)
    workspace = make_workspace(ada, name="Market watch")
    owner = Membership.objects.select_related("workspace", "user").get(user=ada, workspace=workspace)
    notes = services.corpus_create(actor=owner, name="CRM notes")
    with web_site() as site:
        env = {
            **process_env,
            "WEB_SEARCH_PROVIDER": "searxng",
            "SEARXNG_URL": site.base,
            "WEB_FETCH_ALLOWED_HOSTS": f"127.0.0.1:{site.port}",
            "WEB_FETCH_INTERVAL": "0",
        }
        with processes.web_and_worker(env, tmp_path) as stack:
            ingest_with_worker(
                owner, notes, {"globex.txt": b"Globex raised its Team plan to 59 dollars in May."}, stack
            )
            with chromium() as browser:
                page = browser.new_page(viewport={"width": 1200, "height": 900})
                try:
                    log_in(page, stack.base, user="ada", password=PASSWORD)
                    _default(page, stack.base, workspace.slug)
                    _run(page, stack.base, workspace.slug, site)
                    _add_pages(page, stack.base, workspace.slug, site, notes)
                except Exception:
                    page.screenshot(path=str(screenshot_path("web-failure")), full_page=True)
                    print(stack.tails())
                    raise
    run = Run.objects.get(workspace=workspace)
    assert run.status == RunStatus.FINISHED
    assert run.corpora.filter(kind=CorpusKind.WEB).exists()
    assert WebPage.objects.filter(corpus=notes, outcome="refused").count() == 1
