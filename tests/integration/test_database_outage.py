"""PostgreSQL unreachable for a few seconds in the middle of a run, then back: pages answer a clear 503 (JSON
clients a JSON one) while it is away and 200 again after; the run finishes in its one attempt with every event
stored once, numbered without gaps or repeats; a browser's run socket ends up with every event exactly once; and
the worker takes the next run.

PostgreSQL is shared by the whole suite and stays up: the web (Daphne) and the worker reach it through a loopback
proxy of the test's own (tests/support/tcp_proxy.py), which the test cuts (every open connection reset, every new
one reset on arrival, as when the server goes away) and restores ``DOWN_SECONDS`` later. The test's own process
talks to PostgreSQL directly. The outage is kept within what the product promises: shorter than the worker's
retries of a failed database write (research/runs/sink.py: DB_RETRIES, 0.5 + 1 + 2 s after the first failure)
and far shorter than the run's lease (RUN_LEASE_SECONDS), so nothing is re-queued. It is timed to cover the first
database check of the open run socket (RunConsumer.tail_check_seconds after it opened) and a model call's end,
whose events the worker then has to store while the database is away. Only meaningful on PostgreSQL: skipped on
the SQLite pass of the suite (an SQLite file has no connection to cut).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.db import connection

from research.corpora import services
from research.models import Membership, Run, RunStatus
from research.platform.database_down import MESSAGE
from research.runs.consumers import RunConsumer
from tests.research.runs.conftest import FILES
from tests.support import processes
from tests.support.corpora import ingest_with_worker
from tests.support.tcp_proxy import TcpProxy, tcp_proxy
from tests.support.web_client import Browser, RunSocket, follow_to_the_end, run_socket_url, stored_exactly_once

pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="cuts the connections to PostgreSQL"),
]

SLOW_MODEL_READY = "warm-up tests.support.slow_model.install done"
MODEL_SECONDS = "4"  # each model call: a run of 2 rollouts lasts about 13 s, the outage is from 3.5 s to 6.5 s in
DOWN_SECONDS = 3.0  # within the writer's retries: its last one comes 3.5 s after a write first fails
# The outage is centred on the run socket's first database check (it re-reads the run's progress and its access).
SOCKET_CHECK = RunConsumer.tail_check_seconds
LEASE_SECONDS = "30"  # the run's lease: far longer than the outage, whatever the environment says


def _with_port(url: str, port: int) -> str:
    parts = urlsplit(url)
    credentials = parts.netloc.rsplit("@", 1)[0]
    return parts._replace(netloc=f"{credentials}@127.0.0.1:{port}").geturl()


def _get(browser: Browser, path: str, *, accept: str = "text/html") -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(browser.base + path, headers={**browser.headers(), "Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode(errors="replace")


def _assert_unavailable(browser: Browser, page: str, data: str) -> None:
    """Both a page and its JSON answer 503 with the product's message, and no traceback."""
    status, headers, text = _get(browser, page)
    assert status == 503, (status, text[-2000:])
    assert headers["Retry-After"] == "5"
    assert headers["Content-Type"].startswith("text/html")
    assert MESSAGE in text
    assert "Traceback" not in text
    status, headers, text = _get(browser, data, accept="application/json")
    assert status == 503, (status, text[-2000:])
    assert headers["Content-Type"] == "application/json"
    assert json.loads(text) == {"error": MESSAGE}


def _outage(proxy: TcpProxy, browser: Browser, run_id: int, slug: str, *, at: float) -> tuple[float, int]:
    """Cut the proxy at ``at`` (time.monotonic()) for DOWN_SECONDS, checking the pages meanwhile; returns when it
    was restored (time.time()) and the run's last stored seq while it was cut."""
    time.sleep(max(0.0, at - time.monotonic()))
    assert not Run.objects.get(pk=run_id).done, "the run ended before the outage"
    cut = time.monotonic()
    proxy.cut()
    _assert_unavailable(browser, f"/w/{slug}/runs/{run_id}/", f"/w/{slug}/runs/{run_id}.json")
    time.sleep(max(0.0, cut + 0.5 - time.monotonic()))  # a commit sent just before the cut has landed by now
    stored = Run.objects.get(pk=run_id).last_seq
    time.sleep(max(0.0, cut + DOWN_SECONDS - time.monotonic()))
    still = Run.objects.get(pk=run_id)
    proxy.restore()
    down = time.monotonic() - cut
    assert still.last_seq == stored, "the worker stored events through a cut proxy"
    assert not still.done, "the run ended during the outage"
    assert down < DOWN_SECONDS + 0.5, f"the outage lasted {down:.1f}s, longer than the test means"
    return time.time(), stored


def test_a_run_survives_a_database_outage_and_pages_answer_503_meanwhile(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, login, tmp_path: Path
) -> None:
    ada = make_user()
    owner = Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(ada))
    corpus = services.corpus_create(actor=owner, name="Market")
    slug = owner.workspace.slug
    database = urlsplit(process_env["DATABASE_URL"])
    with tcp_proxy((database.hostname or "127.0.0.1", database.port or 5432)) as proxy:
        env = {
            **process_env,
            "DATABASE_URL": _with_port(process_env["DATABASE_URL"], proxy.port),
            "DEBUG": "false",
            "RUN_LEASE_SECONDS": LEASE_SECONDS,
            "WORKER_CONCURRENCY": "2",
            "SLOW_MODEL_SECONDS": MODEL_SECONDS,
            "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install",
        }
        with processes.web_and_worker(env, tmp_path, ready=SLOW_MODEL_READY) as stack:
            browser = Browser(stack.base, login(ada).cookies["sessionid"].value)
            ingest_with_worker(owner, corpus, FILES, stack)
            assert proxy.accepted > 0, "the web and the worker do not go through the proxy"

            first_id = browser.start_run(slug, corpus)
            ws = run_socket_url(stack, first_id)
            with RunSocket(ws, browser.headers()).open() as first_socket:
                processes.wait_for(lambda: first_socket.opened == 1, timeout=30, what="the run socket")
                opened = time.monotonic()
                processes.wait_for(
                    lambda: first_socket.count("turn_started") >= 2,
                    timeout=60,
                    what="the run's first turns",
                    process=stack.worker,
                    log=stack.logs["worker"],
                )
                at = opened + SOCKET_CHECK - DOWN_SECONDS / 2
                restored, stored_while_cut = _outage(proxy, browser, first_id, slug, at=at)
                first = follow_to_the_end(first_socket, first_id, stack)

            status, _, page = _get(browser, f"/w/{slug}/runs/{first_id}/")
            assert status == 200, (status, page[-2000:])
            assert "Finished" in page
            status, _, data = _get(browser, f"/w/{slug}/runs/{first_id}.json", accept="application/json")
            assert status == 200, (status, data[-2000:])

            second_id = browser.start_run(slug, corpus)
            ws = run_socket_url(stack, second_id)
            with RunSocket(ws, browser.headers()).open() as second_socket:
                second = follow_to_the_end(second_socket, second_id, stack)
            assert stack.worker.poll() is None, "the worker died"
            assert stack.web.poll() is None, "the web died"
            tails = stack.tails()
    worker_log = (tmp_path / "worker.log").read_text()
    web_log = (tmp_path / "web.log").read_text()

    # The first run: one attempt, finished, every event stored once, some of them after the database came back.
    assert first.status == RunStatus.FINISHED, (first.status_reason, tails)
    assert first.attempts == 1, tails
    assert first.result
    events = stored_exactly_once(first)
    kinds = [e.type for e in events]
    assert "run_requeued" not in kinds
    assert "run_restarted" not in kinds
    assert kinds.count("run_started") == kinds.count("run_finished") == 1
    assert kinds[-1] == "report_written"
    assert first.last_seq > stored_while_cut
    assert any(e.created_at.timestamp() > restored for e in events), "the run had ended before the database was back"
    assert "database error, retrying" in worker_log, "the worker's writer never met the outage"
    # The browser's socket saw every event exactly once, in order.
    assert first_socket.seqs() == list(range(1, first.last_seq + 1)), (first_socket.closes, tails)
    # The web answered the outage with 503s, not tracebacks.
    assert "database unavailable for GET" in web_log
    assert "Traceback" not in web_log, web_log[-6000:]
    # The open socket's check came during the outage, and it kept the socket (research/runs/consumers.py).
    assert "socket: database check failed" in web_log

    # The second run, started after the outage, on the same worker.
    assert second.status == RunStatus.FINISHED, (second.status_reason, tails)
    assert second.attempts == 1
    stored_exactly_once(second)
    assert second_socket.seqs() == list(range(1, second.last_seq + 1)), (second_socket.closes, tails)
