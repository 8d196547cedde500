"""A real Celery worker process publishes to the channel layer; a real WebSocket client on Daphne receives it."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest
import websockets
from websockets.exceptions import InvalidStatus

from research.platform.realtime import workspace_group
from research.platform.tasks import system_ping
from tests.support import processes
from worker.queues import QUEUE_NAMES

pytestmark = pytest.mark.services


async def _receive_tokens(url: str, headers: dict[str, str], send: object, expected: set[str]) -> set[str]:
    seen: set[str] = set()
    async with websockets.connect(url, additional_headers=headers, open_timeout=10) as socket:
        assert callable(send)
        await asyncio.to_thread(send)
        async with asyncio.timeout(60):
            while not expected <= seen:
                fragment = str(await socket.recv())
                seen |= {token for token in expected if token in fragment}
    return seen


def test_a_worker_task_reaches_a_browser_socket_through_redis(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, login, tmp_path: Path
) -> None:
    ada, eve = make_user(), make_user()
    workspace = make_workspace(ada)
    port = processes.free_port()
    web_log, worker_log = tmp_path / "web.log", tmp_path / "worker.log"
    web = processes.start(
        processes.python("-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "context1_web.asgi:application"),
        env=process_env,
        log=web_log,
    )
    worker = processes.start(
        processes.python("-m", "worker", "--hostname", f"test-{port}@%h"), env=process_env, log=worker_log
    )
    try:
        processes.wait_for(lambda: processes.port_open(port), timeout=60, what="daphne", process=web, log=web_log)
        processes.wait_for(
            lambda: " ready." in worker_log.read_text(), timeout=90, what="worker", process=worker, log=worker_log
        )
        url = f"ws://127.0.0.1:{port}/ws/w/{workspace.slug}/"
        origin = f"http://127.0.0.1:{port}"
        cookie = f"sessionid={login(ada).cookies['sessionid'].value}"
        tokens = {queue: f"{queue}-{uuid.uuid4().hex}" for queue in QUEUE_NAMES}

        def send() -> None:
            for queue, token in tokens.items():
                system_ping.apply_async(kwargs={"group": workspace_group(workspace.pk), "token": token}, queue=queue)

        seen = asyncio.run(_receive_tokens(url, {"Origin": origin, "Cookie": cookie}, send, set(tokens.values())))
        assert seen == set(tokens.values())

        eve_cookie = f"sessionid={login(eve).cookies['sessionid'].value}"
        with pytest.raises(InvalidStatus) as refused:
            asyncio.run(_receive_tokens(url, {"Origin": origin, "Cookie": eve_cookie}, lambda: None, {"never"}))
        assert refused.value.response.status_code == 403
    finally:
        worker_code = processes.stop(worker)
        processes.stop(web)
    assert worker_code == 0, processes.tail(worker_log)
    assert "Warm shutdown" in worker_log.read_text()
