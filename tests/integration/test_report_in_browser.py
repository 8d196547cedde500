"""A competitor report as a member makes one, in headless Chromium against a real Daphne and a real Celery
worker: the form shows the company field for a report (and says when it is missing), the run searches one
facet per rollout (each headed with its facet), and the report appears live with a section per facet, an
executive summary, citation chips that open the document at the quote, and its exports. Then an ICP defined
on the workspace page (its error path first) is checked against the same company: a verdict per criterion,
the fit score and the coverage; and a CSV of companies (one row malformed) is checked as a batch whose
table fills in live, sorts by fit and exports as CSV."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from research.corpora import services
from research.models import Membership, Run, RunStatus
from tests.research.reporting.test_icp_and_prospect_runs import PROFILE as MARKET
from tests.support import processes
from tests.support.browser import chromium, log_in, screenshot_path
from tests.support.corpora import ingest_with_worker

pytestmark = pytest.mark.services
PASSWORD = "a-long-password-1"


def _report(page: Page, base: str, slug: str) -> None:
    page.goto(f"{base}/w/{slug}/runs/")
    expect(page.locator("#id_company")).to_be_hidden()
    page.select_option("#id_template", "competitor")
    expect(page.locator("#id_company")).to_be_visible()
    expect(page.locator("#id_question")).to_be_hidden()
    expect(page.locator("#id_rollouts")).to_be_hidden()  # a report runs one rollout per facet
    expect(page.locator("#run-estimate")).to_contain_text("for 9 rollouts (one per facet, all at once)")
    page.click("text=Start run")
    page.wait_for_selector("#run-form .error:has-text('Name the company the report is about.')", timeout=15_000)
    expect(page.locator("#id_company")).to_be_visible()  # the swapped form keeps the report's fields shown
    page.screenshot(path=str(screenshot_path("report-form-error")), full_page=True)
    page.fill("#id_company", "Halvorix")
    page.fill("#id_aspects", "EU data residency")
    page.locator("#id_aspects").dispatch_event("change")
    expect(page.locator("#run-estimate")).to_contain_text("for 10 rollouts (one per facet")
    page.click("text=Start run")
    page.wait_for_url(f"{base}/w/{slug}/runs/*/")
    expect(page.locator("#answer-heading")).to_contain_text("Report: Halvorix", timeout=90_000)
    expect(page.locator("#run-status")).to_contain_text("Finished")
    # written live, the report fetched itself again with what the member may edit (research/edits)
    expect(page.locator("#answer")).to_contain_text("Save this run as an investigation to strike", timeout=15_000)
    page.screenshot(path=str(screenshot_path("report-written")), full_page=True)
    answer = page.inner_text("#answer")
    assert "Executive summary" in answer
    assert "Pricing" in answer
    assert "40 dollars" in answer
    assert "EU data residency" in answer
    assert "No evidence found in the searched corpora." in answer
    assert "Stellique" not in answer
    assert "Pricing" in page.inner_text("#rollouts")  # each rollout is headed with its facet
    assert "Rollout 1" not in page.inner_text("#rollouts")
    assert "10 rollouts (one per facet)" in page.inner_text("main")  # nine facets and the extra aspect
    chip = page.locator("#facet-pricing .chip").first
    chip.click()
    page.wait_for_selector("mark.quote")
    assert "dollars" in page.inner_text("mark.quote") or "seats" in page.inner_text("mark.quote")


def _edit(page: Page, base: str, slug: str) -> None:
    """Saved as an investigation, a claim struck leaves its section at once (no reload), a note appears in its
    section, and the export lists the strike and the note."""
    page.go_back()
    run_page = page.url
    page.click("text=Save as an investigation…")
    page.click("#run-save button:has-text('Save')")
    page.wait_for_url(f"{base}/w/{slug}/investigations/*/")
    page.goto(run_page)
    claim = page.locator("#facet-pricing li.claim").first
    text = claim.locator(".claim-text").inner_text()
    claim.locator("summary:has-text('Edit')").click()
    claim.locator("input[name=reason]").fill("An old price list")
    claim.locator("button:has-text('Strike')").click()
    expect(page.locator("#answer details.struck summary")).to_contain_text("1 claim struck by analysts")
    assert text not in page.inner_text("#facet-pricing")
    page.locator("#facet-pricing summary:has-text('Add a note')").click()
    page.fill("#facet-pricing textarea[name=text]", "Ask their sales team for the 2027 list")
    page.click("#facet-pricing button:has-text('Add note')")
    expect(page.locator("#facet-pricing .analyst-note")).to_contain_text("Ask their sales team")
    page.screenshot(path=str(screenshot_path("report-edited")), full_page=True)
    with page.expect_download() as download:
        page.click("#answer a:has-text('Markdown')")
    exported = Path(download.value.path()).read_text()
    assert "## Struck by analysts" in exported
    assert "Ask their sales team for the 2027 list" in exported


def _icp(page: Page, base: str, slug: str) -> None:
    page.goto(f"{base}/w/{slug}/")
    page.fill("#id_criteria", "Between 50 and 500 employees | heavy")
    page.click("text=Save profile")
    page.wait_for_selector("#icp-error:has-text('the weight after')", timeout=15_000)
    page.screenshot(path=str(screenshot_path("icp-profile-error")), full_page=True)
    page.fill("#id_criteria", "Between 50 and 500 employees | 2\nHeadquartered in the EU\nHas a friendly culture")
    page.click("text=Save profile")
    expect(page.locator("#icp table")).to_contain_text("headquarters in the EU")
    page.screenshot(path=str(screenshot_path("icp-profile")), full_page=True)
    page.click("#icp a:has-text('ICP check')")
    page.wait_for_load_state()
    assert page.input_value("#id_template") == "icp"
    expect(page.locator("#run-estimate")).to_contain_text("for 3 rollouts (one per facet")
    page.fill("#id_company", "Halvorix")
    page.click("text=Start run")
    page.wait_for_url(f"{base}/w/{slug}/runs/*/")
    expect(page.locator("table.criteria")).to_be_visible(timeout=90_000)
    page.screenshot(path=str(screenshot_path("icp-check")), full_page=True)
    answer = page.inner_text("#answer")
    assert "Fit 100%" in answer
    assert "coverage 67%" in answer
    assert page.locator("table.criteria [data-verdict=match]").count() == 2
    assert page.locator("table.criteria [data-verdict=unknown]").count() == 1


def _batch(page: Page, base: str, slug: str, folder: Path) -> None:
    leads = folder / "leads.csv"
    leads.write_text("Company;Domain\nStellique;stellique.fr\nHalvorix;halvorix.com\n;nobody.com\n")
    bad = folder / "bad.csv"
    bad.write_text("company size,city\n120,Lyon\n")
    page.goto(f"{base}/w/{slug}/")
    page.set_input_files("#id_file", str(bad))
    page.click("text=Check companies")
    page.wait_for_selector("#batch-file-error:has-text('the first line must name the columns')", timeout=15_000)
    page.screenshot(path=str(screenshot_path("icp-batch-error")), full_page=True)
    page.set_input_files("#id_file", str(leads))
    page.click("text=Check companies")
    page.wait_for_url(f"{base}/w/{slug}/icp/batches/*/")
    expect(page.locator("#batch [role=status]")).to_contain_text("2 of 2 checks ended", timeout=120_000)
    assert "Line 4: no company name" in page.inner_text("body")
    page.click("#batch th a:has-text('Fit')")
    expect(page.locator("#batch tbody tr").first).to_contain_text("Halvorix")
    page.screenshot(path=str(screenshot_path("icp-batch")), full_page=True)
    first = page.locator("#batch tbody tr").first
    assert "100%" in first.inner_text()
    assert page.locator("#batch tbody tr").nth(1).locator("[data-verdict=no_match]").count() == 2
    with page.expect_download() as download:
        page.click("text=Export CSV")
    assert "Halvorix" in Path(download.value.path()).read_text()


def test_a_member_makes_a_competitor_report(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread; plain ORM reads
    ada = make_user("ada", password=PASSWORD)
    workspace = make_workspace(ada, name="Market watch")
    owner = Membership.objects.select_related("workspace", "user").get(user=ada, workspace=workspace)
    corpus = services.corpus_create(actor=owner, name="Competitors")
    with processes.web_and_worker(process_env, tmp_path) as stack:
        ingest_with_worker(owner, corpus, MARKET, stack)
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            try:
                log_in(page, stack.base, user="ada", password=PASSWORD)
                _report(page, stack.base, workspace.slug)
                _edit(page, stack.base, workspace.slug)
                _icp(page, stack.base, workspace.slug)
                _batch(page, stack.base, workspace.slug, tmp_path)
            except Exception:
                page.screenshot(path=str(screenshot_path("report-failure")), full_page=True)
                print(stack.tails())
                raise
        runs = list(Run.objects.filter(workspace=workspace).order_by("pk"))
        assert [(run.template, run.status, run.subject) for run in runs] == [
            ("competitor", RunStatus.FINISHED, "Halvorix"),
            ("icp", RunStatus.FINISHED, "Halvorix"),
            ("icp", RunStatus.FINISHED, "Stellique"),
            ("icp", RunStatus.FINISHED, "Halvorix"),
        ]
