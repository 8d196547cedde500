"""Layout at a phone's width (390 px) and a laptop's (1280 px), measured in headless Chromium against a real
Daphne (issue 34): dates never break inside themselves, the ICP batch table shows every verdict without a
sideways scroll, the top bar stays tidy, and the share links' form and table fit their card. The pages are
made in the test's database (finished runs with stored reports: no worker). Screenshots of each page at both
widths are in test-artifacts/layout-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page

from research.batches import services as batches
from research.corpora import services as corpora
from research.investigations import services as investigations
from research.models import IcpBatch, Membership, Run, RunStatus, RunTemplate, ShareLink
from research.protocol.report import Citation, Claim, CriterionResult, Report, Section, Source
from research.reporting.services import report_save
from research.runs import services as runs
from research.sharing import services as sharing
from research.workspaces.services import workspace_create, workspace_icp_set
from tests.support import processes
from tests.support.browser import chromium, log_in, screenshot_path

pytestmark = pytest.mark.services

PASSWORD = "a-long-password-1"
PHONE, LAPTOP = 390, 1280
CRITERIA = ["Between 50 and 500 employees", "Headquartered in the EU", "Uses a vector database", "Series B or later"]
VERDICTS = ["match", "no_match", "unknown", "match"]
# Elements that show a date or a time (date chips): each must lie on one line.
DATES = "time, .claim-date, .badge"
# Every date (and time) written in a page's text: its characters must lie on one line, whatever its markup.
DATES_IN_TEXT = """() => {
    const broken = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const found of node.data.matchAll(/\\d{4}-\\d\\d-\\d\\d( \\d\\d:\\d\\d)?/g)) {
            const range = document.createRange();
            range.setStart(node, found.index);
            range.setEnd(node, found.index + found[0].length);
            const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
            if (lines.size > 1) broken.push(found[0]);
        }
    }
    return broken;
}"""


def _setup(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setattr(runs, "run_enqueue", lambda run_id: None)  # the runs are finished by hand below
    ada = User.objects.create_user("ada.lovelace-the-analyst", password=PASSWORD)
    workspace = workspace_create(name="Market watch", owner=ada)
    owner = Membership.objects.select_related("workspace", "user").get(user=ada)
    corpus = corpora.corpus_create(actor=owner, name="Press")
    run = runs.run_start(actor=owner, question="What is Halvorix doing in Europe?", corpora=[corpus])
    claims = tuple(
        Claim(
            text=text,
            citations=(Citation(chunk_id="press#1", doc_id="press", quote=text),),
            date="2026-06-04",
        )
        for text in [
            "Halvorix opened a Berlin office in June 2026, its third in the European Union after Dublin and Lyon.",
            "Halvorix hired Mara Quist as chief technology officer.",
            "The Berlin team sells the serverless tier to mid-sized retailers in Germany, Austria and Switzerland.",
        ]
    )
    report = Report(
        template="question",
        writer="extractive",
        subject=run.question,
        summary=claims,
        sources=(Source(doc_id="press", title="Halvorix press release", source="press.md", date="2026-06-04"),),
    )
    result = [{"doc_id": "press", "title": "Halvorix press release", "score": 1.0, "chunk_ids": ["press#1"]}]
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED, result=result, finished_at=timezone.now())
    report_save(run, report)
    run.refresh_from_db()
    investigation = investigations.investigation_create(actor=owner, run=run, title="Halvorix in Europe")
    made = sharing.share_link_create(actor=owner, investigation=investigation, run=run, label="for the board")
    link = ShareLink.objects.get()
    workspace_icp_set(actor=owner, text="\n".join(CRITERIA))
    owner.workspace.refresh_from_db()
    csv = b"name,domain\nHalvorix,halvorix.com\nGlobex Corporation,globex.io\nStellique,stellique.eu\n"
    batch = batches.batch_create(actor=owner, file_name="leads.csv", data=csv, corpora=[corpus])
    for row in batch.rows.select_related("run"):
        assert row.run is not None
        judged = tuple(
            CriterionResult(name=name, verdict=verdict, reason="r")  # type: ignore[arg-type]
            for name, verdict in zip(CRITERIA, VERDICTS, strict=True)
        )
        written = Report(
            template="icp", writer="rules", subject=row.company, criteria=judged, fit_score=0.5, coverage=0.75
        )
        report_save(row.run, written)
        Run.objects.filter(pk=row.run.pk).update(status=RunStatus.FINISHED, finished_at=timezone.now())
    priced = runs.run_start(
        actor=owner, question="", corpora=[corpus], template=RunTemplate.COMPETITOR, company="Halvorix"
    )
    pricing = tuple(
        Claim(text=text, citations=(Citation(chunk_id=f"{doc}#0", doc_id=doc, quote=text),), date=day)
        for text, doc, day in [
            ("Enterprise $500/month minimum usage", "pricing-2026-03", "2026-01-06"),
            ("Enterprise $900/month minimum usage", "pricing-2026-07", "2026-06-01"),
        ]
    )
    Run.objects.filter(pk=priced.pk).update(status=RunStatus.FINISHED, finished_at=timezone.now())
    report_save(
        priced,
        Report(
            template="competitor",
            writer="extractive",
            subject="Halvorix",
            sections=(Section(facet="pricing", title="Pricing", claims=pricing),),
        ),
    )
    priced.refresh_from_db()
    file = investigations.investigation_create(actor=owner, run=priced, title="Halvorix file")
    slug = workspace.slug
    return {
        "timeline": f"/w/{slug}/investigations/{file.pk}/",
        "run": f"/w/{slug}/runs/{run.pk}/",
        "investigation": f"/w/{slug}/investigations/{investigation.pk}/",
        "batch": f"/w/{slug}/icp/batches/{IcpBatch.objects.get().pk}/",
        "share-revoke": f"/w/{slug}/investigations/{investigation.pk}/links/{link.pk}/revoke/",  # it asks first
        "shared": f"/s/{made.token}/",  # the report's claims with their dates
        "share-gone": "/s/no-such-link/",
    }


def test_pages_at_a_phones_width_and_a_laptops(  # type: ignore[no-untyped-def]
    process_env: dict[str, str], tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread; plain ORM calls
    urls = _setup(monkeypatch)
    web_log = tmp_path / "web.log"
    failures: list[str] = []
    try:
        with processes.daphne(process_env, web_log) as (base, _), chromium() as browser:
            page = browser.new_context(viewport={"width": LAPTOP, "height": 900}).new_page()
            log_in(page, base, user="ada.lovelace-the-analyst", password=PASSWORD)
            for width in (LAPTOP, PHONE):
                page.set_viewport_size({"width": width, "height": 900})
                for name, url in urls.items():
                    page.goto(base + url)
                    page.screenshot(path=str(screenshot_path(f"layout-{name}-{width}")), full_page=True)
                    failures += [f"{name} at {width}px: {problem}" for problem in _dates_broken(page)]
                    failures += [f"{name} at {width}px: {problem}" for problem in _top_bar_untidy(page)]
                    if name == "batch":
                        failures += [f"batch at {width}px: {problem}" for problem in _verdicts_hidden(page)]
                    if name == "timeline":
                        failures += [f"prices at {width}px: {problem}" for problem in _prices_broken(page)]
                    if name == "investigation":
                        failures += [f"share links at {width}px: {problem}" for problem in _links_card_cut(page)]
    except Exception:
        print(processes.tail(web_log, 60))
        raise
    assert not failures, "\n".join(failures)


def _dates_broken(page: Page) -> list[str]:
    """Every date, time or date badge on one line (a broken inline box has one client rectangle per line)."""
    broken = page.eval_on_selector_all(
        DATES,
        "els => els.filter(e => e.offsetParent !== null && e.getClientRects().length > 1).map(e => e.textContent)",
    )
    broken += page.evaluate(DATES_IN_TEXT)
    return [f"the date {text.strip()!r} breaks across lines" for text in broken]


def _top_bar_untidy(page: Page) -> list[str]:
    """The top bar: no link or button broken over two lines, nothing past the viewport's edge, at most two rows."""
    if page.locator(".topbar").count() == 0:
        return ["no top bar: not a page of the product"]
    width = page.viewport_size["width"] if page.viewport_size else LAPTOP
    problems = page.eval_on_selector_all(
        ".topbar a, .topbar button",
        """(els, width) => els.filter(e => e.offsetParent !== null).flatMap(e => {
            const box = e.getBoundingClientRect();
            const out = [];
            if (e.getClientRects().length > 1) out.push(`${e.textContent.trim()} breaks over lines`);
            if (box.right > width || box.left < 0) out.push(`${e.textContent.trim()} lies past the edge`);
            return out;
        })""",
        width,
    )
    bar = page.locator(".topbar").bounding_box()
    brand = page.locator(".topbar .brand").bounding_box()
    if bar and brand and bar["height"] > 2 * brand["height"] + 32:
        problems.append(f"the top bar is {bar['height']:.0f}px tall")
    return [str(problem) for problem in problems]


def _verdicts_hidden(page: Page) -> list[str]:
    """Each company's every verdict (and its fit) within the viewport, without scrolling sideways."""
    width = page.viewport_size["width"] if page.viewport_size else LAPTOP
    problems = []
    rows = page.locator("#batch tbody tr")
    assert rows.count() == 3
    for index in range(rows.count()):
        row = rows.nth(index)
        cells = [row.locator(".verdict").nth(i) for i in range(len(VERDICTS))] + [row.locator(".fit-cell")]
        for cell in cells:
            box = cell.bounding_box()
            if box is None or box["x"] < 0 or box["x"] + box["width"] > width:
                problems.append(f"row {index + 1}: {cell.inner_text()!r} lies outside the viewport ({box})")
    return problems


def _links_card_cut(page: Page) -> list[str]:
    """The share links' form fields and table (its Revoke action too) inside their card."""
    card = page.locator("#share-links").bounding_box()
    assert card is not None
    problems = []
    inside = ["#share-links select[name=run]", "#share-links table", "#share-links :is(a, button):has-text('Revoke')"]
    for selector in inside:
        box = page.locator(selector).bounding_box()
        if box is None or box["x"] < card["x"] or box["x"] + box["width"] > card["x"] + card["width"]:
            problems.append(f"{selector} is hidden or sticks out of its card ({box} in {card})")
    needed, room = page.eval_on_selector(
        "#share-links select[name=run]",
        """select => {
            const style = getComputedStyle(select);
            const context = document.createElement("canvas").getContext("2d");
            context.font = style.font;
            const text = select.options[select.selectedIndex].text;
            const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
            return [context.measureText(text).width, select.clientWidth - padding - 20];  // 20: the arrow
        }""",
    )
    if needed > room:
        problems.append(f"the run select cuts its run's name ({needed:.0f}px in {room:.0f}px)")
    return problems


def _prices_broken(page: Page) -> list[str]:
    """The price history: each price and run link on one line (not "$500/mon" over "th"), the table inside its
    card."""
    assert page.locator(".prices-table").count() == 1, "no price history on the company's investigation"
    broken = page.eval_on_selector_all(
        ".prices-table td strong, .prices-table td:last-child a",
        "els => els.filter(e => e.getClientRects().length > 1).map(e => e.textContent)",
    )
    problems = [f"{text.strip()!r} breaks across lines" for text in broken]
    card = page.locator("section:has(.prices-table)").bounding_box()
    table = page.locator(".prices-table").bounding_box()
    assert card is not None
    assert table is not None
    if table["x"] + table["width"] > card["x"] + card["width"]:
        problems.append(f"the prices table sticks out of its card ({table} in {card})")
    return problems
