"""Saved investigations, sharing, schedules and invitations as people meet them: headless Chromium against a
real Daphne (issue 13). The run it starts from is a finished run with a stored report (no worker needed).

An owner saves a run as an investigation, shares it with a viewer, makes a share link, schedules it (a cron
that runs too often is refused where the field is), and invites someone by e-mail; a logged-out visitor opens
the share link and a cited passage, then finds it gone once revoked; the invited person creates an account from
the e-mailed link (a password mistake first); the viewer reads the investigation, and a digest of a scheduled
run reaches them as a notification. Screenshots of each page are in test-artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from research.corpora import services as corpora
from research.models import Chunk, Document, Investigation, Membership, Run, RunStatus, Schedule, ShareLink
from research.protocol.report import Citation, Claim, Report, Source
from research.reporting.services import report_save
from research.runs import services as runs
from research.schedules import digests
from research.workspaces.services import workspace_create
from tests.support import processes
from tests.support.browser import chromium, screenshot_path

pytestmark = pytest.mark.services

PASSWORD = "a-long-password-1"
CITED = "Halvorix opened a Berlin office in June 2026."
NEW = "Halvorix hired Mara Quist as chief technology officer."


def _report(claims: list[str]) -> Report:
    return Report(
        template="question",
        writer="extractive",
        subject="What is Halvorix doing in Europe?",
        summary=tuple(  # a question's answer is its claims, as the answer writer stores them
            Claim(text=text, citations=(Citation(chunk_id="press#1", doc_id="press", quote=text),)) for text in claims
        ),
        sources=(Source(doc_id="press", title="Halvorix press release", source="press.md"),),
    )


def _setup() -> tuple[Membership, Run]:
    ada = User.objects.create_user("ada", password=PASSWORD, email="ada@example.com")
    vic = User.objects.create_user("vic", password=PASSWORD, email="vic@example.com")
    workspace = workspace_create(name="Market watch", owner=ada)
    Membership.objects.create(workspace=workspace, user=vic, role="viewer")
    owner = Membership.objects.select_related("workspace", "user").get(user=ada)
    corpus = corpora.corpus_create(actor=owner, name="Press")
    document = Document.objects.create(
        corpus=corpus,
        doc_id="press",
        title="Halvorix press release",
        source_name="press.md",
        kind="text",
        content_hash="h",
        chunk_count=3,
    )
    for index, text in enumerate(["Berlin, 4 June 2026.", f"{CITED} {NEW}", "Contact: press@halvorix.example"]):
        Chunk.objects.create(document=document, index=index, chunk_id=f"press#{index}", text=text)
    run = runs.run_start(actor=owner, question="What is Halvorix doing in Europe?", corpora=[corpus], enqueue=False)
    result = [{"doc_id": "press", "title": "Halvorix press release", "score": 1.0, "chunk_ids": ["press#1"]}]
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FINISHED, result=result, finished_at=timezone.now())
    report_save(run, _report([CITED]))
    return owner, run


def test_investigations_sharing_schedules_and_invitations_in_the_browser(  # type: ignore[no-untyped-def]
    process_env: dict[str, str], tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread; plain ORM calls
    owner, run = _setup()
    mail_dir = tmp_path / "mail"
    env = {**process_env, "EMAIL_FILE_PATH": str(mail_dir), "LOGIN_FAILURES_PER_ADDRESS": "1000"}
    web_log = tmp_path / "web.log"
    errors: list[str] = []
    try:
        with processes.daphne(env, web_log) as (base, _), chromium() as browser:
            ada = _page(browser, errors)
            _log_in(ada, base, "ada")
            investigation_url = _save_and_share(ada, base, owner, run)
            link = _share_link(ada)
            _schedule(ada)
            invite = _invite(ada, base, owner, mail_dir)
            _visit_share_link(_page(browser, errors), link)
            _revoke(ada, investigation_url, link, _page(browser, errors))
            _join(_page(browser, errors), invite, owner)
            _viewer_is_told(_page(browser, errors), base, investigation_url, owner)
    except Exception:
        print(processes.tail(web_log, 60))
        raise
    assert errors == []


def _page(browser: Any, errors: list[str]) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    expected = ("status of 422", "status of 404")  # the refused forms and the revoked link, on purpose
    page.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and not any(e in m.text for e in expected) else None,
    )
    return page


def _log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def _save_and_share(page: Any, base: str, owner: Membership, run: Run) -> str:
    page.goto(f"{base}/w/{owner.workspace.slug}/runs/{run.pk}/")
    page.click("#run-save summary")
    page.fill("#run-save input[name=title]", "Halvorix in Europe")
    page.click("#run-save button[type=submit]")
    page.wait_for_selector("h1:has-text('Halvorix in Europe')")
    investigation = Investigation.objects.get()
    assert page.url.endswith(f"/investigations/{investigation.pk}/")
    page.check("input[name=visibility][value=members]")
    vic = User.objects.get(username="vic")
    page.select_option(f"select[name=member_{vic.pk}]", "viewer")
    page.click("#investigation-sharing button[type=submit]")
    page.wait_for_selector("#investigation-sharing [role=status]:has-text('Saved.')")
    assert Investigation.objects.get().visibility == "members"
    assert "chosen members" in page.inner_text("#investigation-head")  # the head follows, no reload
    page.screenshot(path=str(screenshot_path("investigation-shared")), full_page=True)
    return page.url


def _share_link(page: Any) -> str:
    page.fill("#share-links input[name=label]", "for the board")
    page.click("#share-links button[type=submit]")
    page.wait_for_selector("#new-share-url")
    link = page.input_value("#new-share-url")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/s/[\w-]{43}/", link), link
    assert "for the board" in page.inner_text("#share-links")
    page.screenshot(path=str(screenshot_path("investigation-share-link")), full_page=True)
    return link


def _schedule(page: Any) -> None:
    card = page.locator("#schedule")
    assert page.input_value("#schedule input[name=timezone]") == "UTC"  # headless Chromium's own zone
    page.check("#schedule input[name=frequency][value=cron]")
    assert page.locator("#schedule [data-frequency-only=weekly]").is_hidden()  # only the cron's fields show
    page.fill("#schedule input[name=cron]", "*/5 * * * *")
    page.click("#schedule button:has-text('Save the schedule')")
    page.wait_for_selector("#schedule .error:has-text('at most once every 1 hour')")
    page.screenshot(path=str(screenshot_path("schedule-refused")), full_page=True)
    page.check("#schedule input[name=frequency][value=weekly]")
    page.fill("#schedule input[name=time_of_day]", "08:00")
    page.check("#schedule input[name=weekdays][value='3']")
    page.fill("#schedule input[name=timezone]", "Europe/Berlin")
    page.click("#schedule button:has-text('Save the schedule')")
    page.wait_for_selector("#schedule .notice:has-text('Schedule saved.')")
    assert "Mondays and Thursdays at 08:00 (Europe/Berlin)" in card.inner_text()
    assert "Next runs:" in card.inner_text()
    page.click("#schedule button:has-text('Send me a test e-mail')")
    page.wait_for_selector("#schedule .notice:has-text('A test e-mail went to ada@example.com')")
    page.screenshot(path=str(screenshot_path("schedule-saved")), full_page=True)
    assert Schedule.objects.get().next_run_at is not None


def _invite(page: Any, base: str, owner: Membership, mail_dir: Path) -> str:
    page.goto(f"{base}/w/{owner.workspace.slug}/")
    page.fill("#invitations input[name=email]", "VIC@example.com")  # the browser checks the form; the server, this
    page.click("#invitations button:has-text('Send invitation')")
    page.wait_for_selector("#invitations .error:has-text('is already a member (vic)')")
    page.fill("#invitations input[name=email]", "nina@example.com")
    page.select_option("#invitations select[name=role]", "editor")
    page.click("#invitations button:has-text('Send invitation')")
    page.wait_for_selector("#invitations [role=status]:has-text('Invitation sent to nina@example.com')")
    page.screenshot(path=str(screenshot_path("invitation-sent")), full_page=True)
    sent = "\n".join(path.read_text() for path in mail_dir.glob("*.log"))
    found = re.search(r"http://\S+?(/invite/[\w-]+/)", sent)  # SITE_URL is the default; the server's port differs
    assert found is not None, sent[:2000]
    return base + found.group(1)


def _visit_share_link(page: Any, link: str) -> None:
    page.goto(link)
    assert CITED in page.inner_text("main")
    assert "Halvorix in Europe" in page.inner_text("h1")
    assert page.locator("a[href*='/w/']").count() == 0  # nothing of the workspace
    page.screenshot(path=str(screenshot_path("share-link-page")), full_page=True)
    page.click("a.chip")
    page.wait_for_selector("mark.quote")
    assert "Berlin, 4 June 2026." in page.inner_text("main")  # its context
    page.screenshot(path=str(screenshot_path("share-link-passage")), full_page=True)


def _revoke(ada: Any, investigation_url: str, link: str, visitor: Any) -> None:
    ada.goto(investigation_url)
    ada.once("dialog", lambda dialog: dialog.accept())  # it asks first
    ada.click("#share-links a:has-text('Revoke')")
    ada.wait_for_selector("#share-links .badge:has-text('revoked')")
    assert ShareLink.objects.get().revoked_at is not None
    response = visitor.goto(link)
    assert response.status == 404
    assert "This link was revoked or does not exist" in visitor.inner_text("main")
    visitor.screenshot(path=str(screenshot_path("share-link-revoked")), full_page=True)


def _join(page: Any, invite: str, owner: Membership) -> None:
    page.goto(invite)
    assert "Join Market watch" in page.inner_text("h1")
    page.fill("#id_username", "nina")
    page.fill("#id_password1", "a-long-Passphrase-9")
    page.fill("#id_password2", "another-Passphrase-9")
    page.click("button:has-text('Create the account and join')")
    page.wait_for_selector("form .error:has-text('password fields didn')")
    page.screenshot(path=str(screenshot_path("invitation-password-mismatch")), full_page=True)
    page.fill("#id_password1", "a-long-Passphrase-9")
    page.fill("#id_password2", "a-long-Passphrase-9")
    page.click("button:has-text('Create the account and join')")
    page.wait_for_selector(f"h1:has-text('{owner.workspace.name}')")
    assert Membership.objects.get(workspace=owner.workspace, user__username="nina").role == "editor"
    page.screenshot(path=str(screenshot_path("invitation-joined")), full_page=True)


def _viewer_is_told(page: Any, base: str, investigation_url: str, owner: Membership) -> None:
    investigation = Investigation.objects.get()
    schedule = Schedule.objects.get()
    corpora = list(Run.objects.get(investigation=investigation).corpora.all())
    later = runs.run_start(actor=owner, question=investigation.config["question"], corpora=corpora, enqueue=False)
    Run.objects.filter(pk=later.pk).update(
        status=RunStatus.FINISHED,
        investigation=investigation,
        schedule=schedule,
        finished_at=timezone.now(),
        result=Run.objects.get(investigation=investigation).result,
    )
    report_save(later, _report([CITED, NEW]))
    digest = digests.digest_make(run_id=later.pk)
    assert digest is not None
    assert digest.notified
    _log_in(page, base, "vic")
    page.wait_for_selector(".notices-link .badge.unread:has-text('1')")
    page.click(".notices-link")
    page.click(f"a:has-text('{investigation.title}: 1 new claim')")
    page.wait_for_selector("h1:has-text('1 new claim')")
    assert NEW in page.inner_text("main")
    page.screenshot(path=str(screenshot_path("digest-page")), full_page=True)
    page.goto(investigation_url)
    assert "Save the schedule" not in page.inner_text("main")  # a viewer reads; editors schedule
    assert "You get its e-mails." in page.inner_text("#schedule")
    assert page.locator(".notices-link .badge.unread").count() == 0
