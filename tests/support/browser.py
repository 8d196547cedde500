"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright, for what a person sees."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connections
from playwright.sync_api import Browser, Page, sync_playwright

from tests.support.processes import REPO

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = REPO / "test-artifacts"
# Without the background-networking flags Chromium keeps calling out, and this machine's network refuses it.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        raise AssertionError("Chromium is missing: `make test` installs Debian's chromium (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            # While Playwright's loop runs, asgiref gives ORM calls in this thread a connection of their own (it
            # sees an async context); close it here, or it outlives the test and blocks the test database's drop.
            connections.close_all()
            browser.close()


def screenshot_path(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def log_in(page: Page, base: str, *, user: str, password: str) -> None:
    """Log in through the login form and land on the home page."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def log_in_and_upload(page: Page, base: str, *, user: str, password: str, corpus_url: str, files: list[Path]) -> None:
    """Log in through the form, open the corpus page and upload ``files`` (ingestion then runs in the worker)."""
    log_in(page, base, user=user, password=password)
    page.goto(f"{base}{corpus_url}")
    page.set_input_files("#id_upload", [str(path) for path in files])
    page.click("text=Upload and ingest")
