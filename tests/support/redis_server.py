"""A redis-server of a test's own (the embedded binary, on a free loopback port), so that killing it (SIGKILL, as a
crash would) does not disturb the Redis the rest of the suite shares."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import redis

from context1_web.embedded_redis import redis_server_binary
from tests.support import processes


class RedisServer:
    """A redis-server of the test's own on one loopback port, without persistence: a restart starts it empty."""

    def __init__(self, folder: Path) -> None:
        self.port = processes.free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.starts = 0
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.starts += 1
        log = self.folder / f"redis-{self.starts}.log"
        argv = [str(redis_server_binary()), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
        argv += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        self.process = processes.start(argv, env=dict(os.environ), log=log)
        processes.wait_for(self.answers, timeout=15, what="redis-server", process=self.process, log=log)

    def kill(self) -> None:
        if self.process is not None:
            processes.stop(self.process, sig=signal.SIGKILL)

    def _client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)

    def answers(self) -> bool:
        client = self._client()
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def keys(self, prefix: str) -> list[bytes]:
        client = self._client()
        try:
            return list(client.scan_iter(match=f"{prefix}*", count=1000))
        finally:
            client.close()
