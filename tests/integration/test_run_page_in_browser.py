"""The run form and the live run page as a new user meets them, in headless Chromium against a real Daphne
and a real Celery worker (its model slowed by ``tests.support.slow_model``, so a run can be cancelled midway).

Each form's error path is shown (htmx swaps the 422 partials), a pasted question is never cut silently, a
long question still searches, a cancelled run says why and shows what it had found (live and after a
reload), the event log says what happened, the estimate sends no CSRF token in its URL, the page fits a
390-pixel phone, and the demo workspace offers questions to try.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from research.corpora import services
from research.demo.seed import DEMO_CORPUS, demo_questions
from research.models import Corpus, Membership, Run, RunStatus
from research.workspaces.services import workspace_create
from tests.research.runs.conftest import FILES, QUESTION
from tests.support import processes
from tests.support.browser import chromium, log_in, screenshot_path
from tests.support.corpora import ingest_with_worker

pytestmark = pytest.mark.services
PASSWORD = "a-long-password-1"


def _submit_and_expect(page: Page, text: str) -> None:
    """Start the run and wait for ``text`` in the form htmx swapped in (a 422 answer)."""
    page.click("text=Start run")
    page.wait_for_selector(f"#run-form .error:has-text('{text}')", timeout=15_000)


def _form_errors(page: Page, base: str, slug: str, estimates: list[str]) -> None:
    page.goto(f"{base}/w/{slug}/runs/")
    page.fill("#id_rollouts", "2")
    page.locator("#id_rollouts").dispatch_event("change")
    expect(page.locator("#run-estimate")).to_contain_text("for 2 rollouts")
    assert estimates, "the estimate was not requested"
    assert not [url for url in estimates if "csrfmiddlewaretoken" in url], estimates

    page.fill("#id_question", "   ")
    _submit_and_expect(page, "Ask a question.")
    page.fill("#id_question", QUESTION)
    page.uncheck("#run-form input[name=corpora]")
    _submit_and_expect(page, "Choose at least one corpus.")
    page.screenshot(path=str(screenshot_path("run-form-errors")), full_page=True)

    pasted = ("Halvorix serverless pricing " * 400)[:10_000]
    page.fill("#id_question", pasted)
    assert len(page.input_value("#id_question")) == 10_000  # not cut by the browser
    assert "10,000 / 4,000 characters: 6,000 too many" in page.inner_text("#question-count")
    page.check("#run-form input[name=corpora]")
    _submit_and_expect(page, "Keep the question within 4,000 characters (this one has 10,000).")
    page.screenshot(path=str(screenshot_path("run-form-too-long")), full_page=True)


def _long_question_then_cancel(page: Page, base: str, slug: str) -> Run:
    question = " ".join([QUESTION] * 60)[:3_900]  # long, but allowed: longer than a search query may be
    page.fill("#id_question", question)
    page.fill("#id_rollouts", "2")
    page.fill("#id_max_turns", "30")
    page.click("text=Start run")
    page.wait_for_url(f"{base}/w/{slug}/runs/*/")
    page.wait_for_selector(".call .result-count", timeout=60_000)  # the first search ran
    assert "longer than" not in page.inner_text("#rollouts")
    page.fill("#cancel-reason", "wrong corpus, sorry")
    page.click("text=Cancel run")
    expect(page.locator("#run-status")).to_contain_text("Cancelled", timeout=60_000)
    return Run.objects.get(question=question.strip())


def _cancelled_page(page: Page, run: Run) -> None:
    """What a cancelled run shows, live and after a reload alike."""
    assert "wrong corpus, sorry" in page.inner_text("#run-status")
    assert page.locator(".rollout-ending [data-status=cancelled]").count() == run.rollouts
    assert "Ended: cancelled" not in page.inner_text("#rollouts")
    final = page.inner_text("#final-documents")
    assert "appear here when the run finishes" not in final
    assert "What the rollouts had found when the run was cancelled:" in final, final
    assert page.locator("#final-documents li").count() >= 1
    assert page.inner_text("#live-note").strip() == ""
    log = page.text_content("#run-events") or ""  # the event log is folded away: its text, not what shows
    assert "rollout 1: search: " in log
    assert "chunks (" in log
    assert "cancel requested by ada" in log


def _fits_a_phone(page: Page, url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url)
    page.wait_for_selector("#final-documents")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    page.screenshot(path=str(screenshot_path("run-page-390px")), full_page=True)
    assert overflow <= 0, f"the page is {overflow}px wider than a 390px screen"
    page.set_viewport_size({"width": 1200, "height": 900})


def _workspace_error(page: Page, base: str) -> None:
    page.goto(f"{base}/")
    page.fill("#id_name", "   ")
    page.locator("#id_name").press("Enter")
    page.wait_for_selector("#workspaces .error, form .error", timeout=15_000)


def _member_error(page: Page, base: str, slug: str) -> None:
    page.goto(f"{base}/w/{slug}/")
    page.fill("#invitations input[name=email]", "nobody@here")  # the browser lets it through; the server does not
    page.locator("#invitations input[name=email]").press("Enter")
    page.wait_for_selector("#invitations .error", timeout=15_000)


def _demo_suggestions(page: Page, base: str, slug: str) -> None:
    page.goto(f"{base}/w/{slug}/runs/")
    first = demo_questions()[0]
    page.locator(".suggestions a").first.click()
    page.wait_for_load_state()
    assert page.input_value("#id_question") == first
    assert page.locator(".suggestions").count() == 0
    page.screenshot(path=str(screenshot_path("run-form-demo-question")), full_page=True)


def test_a_new_user_meets_the_run_form_and_a_cancelled_run(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread; plain ORM reads
    ada = make_user("ada", password=PASSWORD)
    workspace = make_workspace(ada, name="Market watch")
    owner = Membership.objects.select_related("workspace", "user").get(user=ada, workspace=workspace)
    demo = workspace_create(name="Demo workspace", owner=ada)
    Corpus.objects.create(workspace=demo, name=DEMO_CORPUS, slug="demo-corpus")
    corpus = services.corpus_create(actor=owner, name="Press")
    env = {**process_env, "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install"}
    env["SLOW_MODEL_SECONDS"] = "3"  # three turns of the heuristic model outlast the click on "Cancel run"
    estimates: list[str] = []
    with processes.web_and_worker(env, tmp_path) as stack:
        ingest_with_worker(owner, corpus, FILES, stack)
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.on("request", lambda request: estimates.append(request.url) if "estimate" in request.url else None)
            try:
                _scenario(page, stack.base, workspace.slug, demo.slug, estimates)
            except Exception:
                page.screenshot(path=str(screenshot_path("run-page-failure")), full_page=True)
                print(stack.tails())
                raise


def _scenario(page: Page, base: str, slug: str, demo_slug: str, estimates: list[Any]) -> None:
    log_in(page, base, user="ada", password=PASSWORD)
    _form_errors(page, base, slug, estimates)
    run = _long_question_then_cancel(page, base, slug)
    page.screenshot(path=str(screenshot_path("run-cancelled-live")), full_page=True)
    _cancelled_page(page, run)
    processes.wait_for(lambda: Run.objects.get(pk=run.pk).status == RunStatus.CANCELLED, timeout=60, what="cancel")
    page.reload()
    _cancelled_page(page, run)
    _fits_a_phone(page, page.url)
    _member_error(page, base, slug)
    _workspace_error(page, base)
    _demo_suggestions(page, base, demo_slug)
