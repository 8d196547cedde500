"""A research run watched live in a real browser: Daphne, a Celery worker, Redis, headless Chromium.

The heuristic backend is slowed by the test-only warm-up ``tests.support.slow_model.install`` (one second
per model call, in the worker only), so the run is still going when the page is reloaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from research.corpora import services
from research.models import Corpus, Membership, Run, RunEvent
from tests.support import processes
from tests.support.browser import chromium, log_in_and_upload, screenshot_path
from tests.support.corpora import corpus_indexed

pytestmark = pytest.mark.services

QUESTION = "Who sponsors Project Halyard and where did they work before?"
RELEVANT = {
    "press.txt": "Halvorix announced Project Halyard, a serverless program sponsored by Dana Okonkwo.",
    "bio.txt": "Dana Okonkwo previously led storage engineering at Stellique Data before joining Halvorix.",
    "stellique.txt": "Stellique Data is a storage company based in Lyon.",
}
FILLER = (
    "soup bread garden tulips bicycle harbour violin glacier pottery lantern "
    "meadow copper kettle orchard pebble saddle thimble walnut yarn zither"
).split()
FILLER_DOCUMENTS = 60


def _files(folder: Path) -> list[Path]:
    """Three documents that answer the question and many that share none of its words (what the agent prunes)."""
    texts = dict(RELEVANT)
    for index in range(FILLER_DOCUMENTS):
        words = [FILLER[(index * 7 + step * 3) % len(FILLER)] for step in range(6)]
        texts[f"note-{index:02d}.txt"] = f"Note {index}: " + " ".join(words) + f" on day {index}."
    paths = []
    for name, text in texts.items():
        (folder / name).write_text(text)
        paths.append(folder / name)
    return paths


def _seqs(page) -> list[int]:  # type: ignore[no-untyped-def]
    return [int(seq) for seq in page.eval_on_selector_all("#run-events > li", "items => items.map(i => i.dataset.seq)")]


def test_a_person_starts_a_run_and_watches_it_live_across_a_reload(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread; plain ORM reads
    ada = make_user("ada", password="a-long-password-1")
    workspace = make_workspace(ada, name="Market watch")
    corpus = services.corpus_create(actor=Membership.objects.get(user=ada), name="Press")
    paths = _files(tmp_path)
    env = {**process_env, "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install"}
    warmed = "warm-up tests.support.slow_model.install done"
    with processes.web_and_worker(env, tmp_path, ready=warmed) as stack, chromium() as browser:
        page = browser.new_page(viewport={"width": 1360, "height": 1000})
        try:
            _watch(page, stack.base, workspace.slug, corpus, paths, stack.worker, stack.logs["worker"])
        except Exception:
            page.screenshot(path=str(screenshot_path("run-failure")), full_page=True)
            print("events:", list(RunEvent.objects.values_list("seq", "type")))
            print(stack.tails())
            raise


def _watch(page, base: str, slug: str, corpus: Corpus, paths: list[Path], worker, worker_log: Path) -> None:  # type: ignore[no-untyped-def]
    log_in_and_upload(
        page, base, user="ada", password="a-long-password-1", corpus_url=f"/w/{slug}/c/{corpus.slug}/", files=paths
    )
    processes.wait_for(
        lambda: corpus_indexed(corpus, len(paths)), timeout=240, what="ingestion", process=worker, log=worker_log
    )

    # The form: the estimate follows the limits before anything starts.
    page.goto(f"{base}/w/{slug}/")
    page.click("text=Research runs")
    page.fill("#id_question", QUESTION)
    page.check("#run-form label.check:has-text('Press') input")
    page.fill("#id_rollouts", "2")
    page.fill("#id_max_turns", "6")
    page.locator("#id_max_turns").dispatch_event("change")
    expect(page.locator("#run-estimate")).to_contain_text("for 2 rollouts")
    page.screenshot(path=str(screenshot_path("run-form")), full_page=True)
    page.dblclick("text=Start run")  # a double-click starts one run (the button is off while it is sent)
    page.wait_for_url(f"{base}/w/{slug}/runs/*/")
    run = Run.objects.get()

    # Live, without reloading: sub-queries with their result counts, then the fused ranking.
    page.wait_for_selector(".call .result-count", timeout=60_000)
    page.wait_for_selector("#fused-ranking li", timeout=60_000)
    page.wait_for_selector("#run-graph svg .node.doc", timeout=30_000)  # re-fetched as the ranking changes
    before = _seqs(page)
    assert not Run.objects.get(pk=run.pk).done, "the run ended before the reload; slow it down"
    page.screenshot(path=str(screenshot_path("run-live")), full_page=True)

    # A reload mid-run renders what was stored, then the socket resumes after it: nothing twice, nothing lost.
    page.reload()
    assert "Live:" in page.inner_text("#live-note")  # rendered while the run was still going
    after_reload = _seqs(page)
    assert after_reload[: len(before)] == before
    page.wait_for_selector("#final-documents li", timeout=120_000)
    page.wait_for_selector(".prune del", timeout=10_000)
    page.wait_for_selector(".chunk .pruned-mark", state="attached", timeout=10_000)
    assert page.inner_text("#run-status").strip().endswith("Finished")
    # The answer is written after the search and arrives live: verified sentences with citation chips.
    page.wait_for_selector("#answer li.claim a.chip", timeout=60_000)
    answer = page.inner_text("#answer")
    assert "Dana Okonkwo" in answer
    assert "extractive" in answer
    processes.wait_for(
        lambda: Run.objects.get(pk=run.pk).done, timeout=60, what="the run's end", process=worker, log=worker_log
    )
    stored = list(RunEvent.objects.filter(run=run).order_by("seq").values_list("seq", flat=True))
    expect(page.locator("#run-events > li")).to_have_count(len(stored), timeout=30_000)
    assert _seqs(page) == stored == list(range(1, len(stored) + 1))
    assert page.locator("#run-controls form").count() == 0  # no cancel button on a finished run
    assert page.inner_text("#live-note").strip() == ""  # the live promise went with the run's end
    text = page.inner_text("#rollouts")
    assert "tokens freed" in text
    assert "already seen" in text or "new" in text
    assert page.locator("#run-graph svg .node.query").count() > 0
    page.screenshot(path=str(screenshot_path("run-finished")), full_page=True)

    # A finished run replays from storage: the same page, no socket; its documents open highlighted.
    page.reload()
    assert page.inner_text("#live-note").strip() == ""  # no socket, so no "Live:" promise
    assert _seqs(page) == stored
    assert "Dana Okonkwo" in page.inner_text("#answer")  # stored, shown again without rewriting
    page.locator("#answer a.chip").first.click()
    expect(page.locator("mark.quote")).to_be_visible()
    page.screenshot(path=str(screenshot_path("run-cited-quote")), full_page=True)
    page.go_back()
    page.locator("#final-documents li a").first.click()
    page.wait_for_selector(".chunk.highlighted")
    page.screenshot(path=str(screenshot_path("run-document")), full_page=True)
    page.goto(f"{base}/w/{slug}/runs/")
    assert "Finished" in page.inner_text("table.history")
    page.screenshot(path=str(screenshot_path("run-history")), full_page=True)
