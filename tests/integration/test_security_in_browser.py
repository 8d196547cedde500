"""Security features as a person meets them, in headless Chromium against a real Daphne and Redis (issue 11).

One server start checks: the pages (login, workspace, corpus, a run with gauges, its graph and a live
socket, the admin) work under the Content-Security-Policy with no violation in the console; an owner
removes a member from the workspace page (and removing the last owner is refused with a clear error),
and the removed member's open page loses its socket at once; wrong passwords lock a username out with
a message saying when to come back, the right one is refused until then and works after, on the site
and the admin alike; the favicon is there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Q

from research.bench.run_page import synthetic_events
from research.corpora import services as corpora
from research.models import Membership, Run, RunStatus, Workspace
from research.platform import throttle
from research.runs import journal
from research.workspaces.services import workspace_create
from tests.support import processes
from tests.support.browser import chromium, screenshot_path

pytestmark = pytest.mark.services

PASSWORD = "a-long-password-1"
LOCKOUT_SECONDS = 8


class Console:
    """Every console message and page error of the pages it watches. (Playwright's wait_for_function evaluates
    its predicate with eval in the page, which the policy rightly refuses: the test waits on selectors.)"""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def watch(self, page: Any) -> Any:
        page.on("console", lambda message: self.lines.append(f"{message.type}: {message.text}"))
        page.on("pageerror", lambda error: self.lines.append(f"pageerror: {error}"))
        return page

    def violations(self) -> list[str]:
        return [line for line in self.lines if "Content Security Policy" in line or "Refused to" in line]


def _until(page: Any, condition: Any, *, timeout: float, what: str) -> None:
    """Poll ``condition`` while Playwright keeps dispatching the page's events (a plain sleep would not)."""
    for _ in range(int(timeout * 10)):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{what}: not within {timeout:.0f}s")


def _sockets(page: Any) -> list[Any]:
    """The WebSockets the page opens, as they open (Playwright calls back with each)."""
    opened: list[Any] = []

    def record(socket: Any) -> None:
        opened.append(socket)

    page.on("websocket", record)
    return opened


def _log_in(page: Any, base: str, username: str, password: str, path: str = "/accounts/login/") -> None:
    page.goto(f"{base}{path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("[type=submit]")
    page.wait_for_load_state()


def _setup() -> tuple[Workspace, Run]:
    ada = User.objects.create_user("ada", password=PASSWORD)
    User.objects.create_user("bob", password=PASSWORD)
    User.objects.create_user("cat", password=PASSWORD)
    User.objects.create_superuser("root", password=PASSWORD)
    workspace = workspace_create(name="Market watch", owner=ada)
    Membership.objects.create(workspace=workspace, user=User.objects.get(username="bob"), role="viewer")
    owner = Membership.objects.select_related("workspace", "user").get(user=ada)
    corpus = corpora.corpus_create(actor=owner, name="Press")
    run = Run.objects.create(workspace=workspace, created_by=ada, question="q", rollouts=4, status=RunStatus.RUNNING)
    run.corpora.set([corpus])
    assert journal.events_store(run_id=run.pk, events=synthetic_events(120), attempt=1, guard=Q()) is not None
    return workspace, run


def test_security_features_in_the_browser(process_env: dict[str, str], tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread; plain ORM calls
    workspace, run = _setup()
    env = {
        **process_env,
        "LOGIN_FAILURES_PER_USERNAME": "3",
        "LOGIN_FAILURES_PER_ADDRESS": "1000",  # every browser request comes from 127.0.0.1
        "LOGIN_LOCKOUT_SECONDS": str(LOCKOUT_SECONDS),
    }
    web_log = tmp_path / "web.log"
    console = Console()
    try:
        with processes.daphne(env, web_log) as (base, _), chromium() as browser:
            _pages_under_the_policy(browser, base, workspace, run, console)
            _member_removal(browser, base, workspace, console)
            _login_throttling(browser, base, console)
    except Exception:
        print(processes.tail(web_log, 60))
        print("\n".join(console.lines))
        raise
    assert console.violations() == []
    assert "Not Found: /favicon.ico" not in web_log.read_text()


def _pages_under_the_policy(browser: Any, base: str, workspace: Workspace, run: Run, console: Console) -> None:
    page = console.watch(browser.new_page(viewport={"width": 1280, "height": 900}))
    sockets = _sockets(page)
    page.goto(f"{base}/accounts/login/")
    response = page.request.get(f"{base}/accounts/login/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert page.locator('link[rel="icon"]').get_attribute("href") == "/static/favicon.svg"
    assert page.request.get(f"{base}/favicon.ico").status == 200
    page.screenshot(path=str(screenshot_path("security-login")), full_page=True)
    _log_in(page, base, "ada", PASSWORD)
    page.goto(f"{base}/w/{workspace.slug}/c/press/")
    page.wait_for_selector("#id_upload")
    page.screenshot(path=str(screenshot_path("security-corpus-page")), full_page=True)
    page.goto(f"{base}/w/{workspace.slug}/runs/{run.pk}/")
    page.wait_for_selector("#run-graph svg .node", timeout=30_000)
    page.wait_for_selector("#fused-ranking li")
    gauge = page.locator(".gauge-used").first
    assert gauge.evaluate("node => getComputedStyle(node).getPropertyValue('--used').trim()") != ""
    assert page.evaluate("typeof window.htmx") == "object"
    _until(page, lambda: any(f"/ws/runs/{run.pk}/" in socket.url for socket in sockets), timeout=30, what="socket")
    page.screenshot(path=str(screenshot_path("security-run-page")), full_page=True)
    page.goto(f"{base}/w/{workspace.slug}/runs/")  # the run form: its estimate is an htmx request
    page.fill("#id_rollouts", "2")
    page.locator("#id_rollouts").dispatch_event("change")
    page.wait_for_selector("#run-estimate:has-text('for 2 rollouts')")
    assert console.violations() == []
    page.close()


def _member_removal(browser: Any, base: str, workspace: Workspace, console: Console) -> None:
    bobs = console.watch(browser.new_context().new_page())
    bobs_sockets = _sockets(bobs)
    _log_in(bobs, base, "bob", PASSWORD)
    bobs.goto(f"{base}/w/{workspace.slug}/")
    _until(bobs, lambda: bool(bobs_sockets), timeout=30, what="bob's workspace socket")
    assert not bobs_sockets[0].is_closed()

    owner = console.watch(browser.new_context().new_page())
    owner.on("dialog", lambda dialog: dialog.accept())  # "Remove bob from Market watch? ..."
    _log_in(owner, base, "ada", PASSWORD)
    owner.goto(f"{base}/w/{workspace.slug}/")
    members = owner.locator("#members")
    owner.click('button[aria-label="Remove ada"]')  # the only owner
    owner.wait_for_selector("#members .error")
    assert "last owner" in members.inner_text()
    owner.screenshot(path=str(screenshot_path("security-last-owner-refused")), full_page=True)
    owner.click('button[aria-label="Remove bob"]')
    owner.wait_for_selector('button[aria-label="Remove bob"]', state="detached")
    assert "last owner" not in members.inner_text()
    owner.screenshot(path=str(screenshot_path("security-member-removed")), full_page=True)
    assert not Membership.objects.filter(workspace=workspace, user__username="bob").exists()
    _until(bobs, bobs_sockets[0].is_closed, timeout=15, what="bob's socket closing")
    assert bobs.goto(f"{base}/w/{workspace.slug}/").status == 404


def _login_throttling(browser: Any, base: str, console: Console) -> None:
    page = console.watch(browser.new_context().new_page())
    for _ in range(2):
        _log_in(page, base, "cat", "wrong")
        assert "correct username and password" in page.inner_text("main")
    _log_in(page, base, "cat", "wrong")
    message = page.inner_text("main")
    assert "Too many failed logins. Try again in" in message
    assert " at " in message
    page.screenshot(path=str(screenshot_path("security-login-locked")), full_page=True)
    _log_in(page, base, "cat", PASSWORD)  # the right password, refused while locked out
    assert "Too many failed logins" in page.inner_text("main")
    assert page.url.endswith("/accounts/login/")
    _until(
        page,
        lambda: throttle.login_lockout(username="cat", address="127.0.0.1") is None,
        timeout=LOCKOUT_SECONDS + 30,
        what="the lockout's end",
    )
    _log_in(page, base, "cat", PASSWORD)
    assert page.url == f"{base}/"
    assert "Your workspaces" in page.inner_text("main")

    admin = console.watch(browser.new_context().new_page())
    for _ in range(3):
        _log_in(admin, base, "root", "wrong", "/admin/login/")
    assert "Too many failed logins" in admin.inner_text("#content")
    admin.screenshot(path=str(screenshot_path("security-admin-locked")), full_page=True)
