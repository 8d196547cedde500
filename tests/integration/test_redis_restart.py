"""Redis restarted in the middle of a run, and restarted empty: the worker and the web reconnect by themselves,
the run finishes once (one attempt, no second delivery), its events are numbered without gaps or repeats, and a
browser's run socket ends up with every event exactly once.

The test runs a redis-server of its own (the embedded binary, on a free loopback port) so that killing it
(SIGKILL, as a crash would) does not disturb the Redis the rest of the suite shares; the web (Daphne) and the
worker get its URL, and it starts again on the same port 1.5 s later. Persistence is off (``--save ""``,
``--appendonly no``), so the restarted server holds nothing: the Celery queues and bindings, the unacknowledged
run message and the channel layer's subscriptions are all gone. That is the hard case; a Redis with its
append-only file (the embedded default) loses less. Everything goes through the web as a browser would: the
upload, both runs' starts (so the web's Celery producer must reconnect for the second) and the run sockets. The
socket follows the run page's rule: if it is closed, it opens again with ``?after=<last seq>``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from research.corpora import services
from research.models import Membership, Run, RunStatus
from tests.research.runs.conftest import FILES
from tests.support import processes
from tests.support.corpora import wait_indexed
from tests.support.redis_server import RedisServer
from tests.support.web_client import Browser, Frame, RunSocket, follow_to_the_end, run_socket_url, stored_exactly_once

pytestmark = pytest.mark.services

SLOW_MODEL_READY = "warm-up tests.support.slow_model.install done"
# Each model call takes this long, so a run lasts about 9 s: Redis goes away about 3 s in, comes back 1.5 s
# later, and the run still has a turn and its end to go.
MODEL_SECONDS = "3"
DOWN_SECONDS = 1.5  # how long Redis is away
SETTLE_SECONDS = 2.0  # after Redis is back, by when the web has subscribed again (it retries every second)
# An event received this soon after it was stored came live, through Redis pub/sub: the socket's database
# check (RunConsumer.tail_check_seconds, 5 s) would deliver about a fifth of the events that soon.
LIVE_WITHIN_SECONDS = 1.0


def _live_share(frames: list[Frame]) -> float:
    """The share of ``frames`` that came within LIVE_WITHIN_SECONDS of being stored."""
    assert frames
    return sum(frame.lag <= LIVE_WITHIN_SECONDS for frame in frames) / len(frames)


def test_a_run_survives_redis_restarting_empty_and_the_stack_recovers_by_itself(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, login, tmp_path: Path
) -> None:
    ada = make_user()
    workspace = make_workspace(ada)
    owner = Membership.objects.select_related("workspace", "user").get(workspace=workspace)
    corpus = services.corpus_create(actor=owner, name="Market")
    server = RedisServer(tmp_path)
    server.start()
    env = {
        **process_env,
        "REDIS_URL": server.url,
        "WORKER_CONCURRENCY": "2",
        "SLOW_MODEL_SECONDS": MODEL_SECONDS,
        "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install",
    }
    slug = owner.workspace.slug
    try:
        with processes.web_and_worker(env, tmp_path, ready=SLOW_MODEL_READY) as stack:
            browser = Browser(stack.base, login(ada).cookies["sessionid"].value)
            browser.upload(slug, corpus, FILES)
            wait_indexed(corpus, len(FILES), stack)
            assert server.keys(env["REDIS_KEY_PREFIX"]), "the web and the worker do not use the test's Redis"

            first_id = browser.start_run(slug, corpus)
            with RunSocket(run_socket_url(stack, first_id), browser.headers()).open() as first_socket:
                processes.wait_for(
                    lambda: first_socket.count("turn_started") >= 3,
                    timeout=60,
                    what="the run's first turns",
                    process=stack.worker,
                    log=stack.logs["worker"],
                )
                assert not Run.objects.get(pk=first_id).done, "the run ended before Redis went away"
                server.kill()
                time.sleep(DOWN_SECONDS)
                server.start()
                restarted = time.time()
                first = follow_to_the_end(first_socket, first_id, stack)

            status, health = browser.request("/healthz")
            assert status == 200, (status, health)
            second_id = browser.start_run(slug, corpus)  # the web's Celery producer reconnected
            with RunSocket(run_socket_url(stack, second_id), browser.headers()).open() as second_socket:
                second = follow_to_the_end(second_socket, second_id, stack)
            status, page = browser.request(f"/w/{slug}/runs/{first_id}/")
            assert status == 200, (status, page[-2000:])
            assert "Finished" in page
            assert stack.worker.poll() is None, "the worker died"
            assert stack.web.poll() is None, "the web died"
            tails = stack.tails()
    finally:
        server.kill()

    # The first run: one attempt, finished, every event stored once, some of them after Redis came back.
    assert first.status == RunStatus.FINISHED, (first.status_reason, tails)
    assert first.attempts == 1, tails
    assert first.result
    events = stored_exactly_once(first)
    kinds = [e.type for e in events]
    assert "run_requeued" not in kinds
    assert "run_restarted" not in kinds
    assert kinds.count("run_started") == kinds.count("run_finished") == 1
    assert any(e.created_at.timestamp() > restarted for e in events), "the run had ended before Redis came back"
    # The browser saw every event exactly once, in order, on the socket it had open all along; once the web had
    # subscribed again, they came live (not from the socket's 5 s database check).
    assert first_socket.seqs() == list(range(1, first.last_seq + 1)), (first_socket.closes, tails)
    assert first_socket.opened == 1, first_socket.closes
    settled = [frame for frame in first_socket.frames if frame.stored > restarted + SETTLE_SECONDS]
    assert settled, "the run ended too soon after Redis came back"
    assert _live_share(settled) >= 0.5, ([round(f.lag, 2) for f in settled], tails)
    assert "Connection to broker lost" in (tmp_path / "worker.log").read_text(), "the worker never noticed"

    # The second run, started through the web after the restart: finished, its events live again.
    assert second.status == RunStatus.FINISHED, (second.status_reason, tails)
    assert second.attempts == 1
    stored_exactly_once(second)
    assert second_socket.seqs() == list(range(1, second.last_seq + 1)), (second_socket.closes, tails)
    assert _live_share(second_socket.frames) >= 0.5, ([round(f.lag, 2) for f in second_socket.frames], tails)
