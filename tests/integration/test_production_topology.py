"""The production topology as real processes, no Docker (issue 32): the machine's PostgreSQL and Redis, a Chroma
server (``chroma run`` from the chromadb package, ``CHROMA_URL``), two Daphne processes on two ports, two Celery
workers with the prefork pool on different queues (``ingest``; ``runs,reports,default``) and beat. Through it: an
upload ingested, a question run and a competitor report finished, the run started through the first web process
streamed by a page on the second (the channel layer over Redis), a schedule fired by beat, and a runs worker
SIGKILLed mid-run whose run another runs worker takes over, and Redis restarted empty mid-run. The processes and their
variables are docker-compose.yml's (tests/support/topology.py, held to the compose file by its own test)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time as clock
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import time, timedelta
from pathlib import Path

import chromadb
import httpx
import pytest
from django.db import connection
from django.utils import timezone

from research.api.tokens import token_create
from research.investigations.services import investigation_create
from research.models import Chunk, Corpus, Membership, Run, RunEvent, RunStatus, Schedule, Stage, UploadFile
from research.schedules.services import schedule_save
from tests.research.runs.conftest import FILES, QUESTION
from tests.support import processes, topology
from tests.support.corpora import corpus_indexed
from tests.support.redis_server import RedisServer
from tests.support.web_client import Browser, RunSocket, stored_exactly_once

SLOW = "research.platform.warmup.open_chroma,tests.support.slow_model.install"
SLOW_EMBEDDING = {
    "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install_slow_embedding",
    "SLOW_EMBED_SECONDS": "0.5",
}
ARCHIVE = {f"memo-{n}.txt": f"Memo {n}: Halvorix renewed contract {n} with Glenmorrow.".encode() for n in range(6)}
pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the production topology runs on PostgreSQL"),
    pytest.mark.timeout(600),
]


class ChromaServer:
    """A Chroma server from the chromadb package on a loopback port, restartable on the same port and folder."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port, self.log = folder, processes.free_port(), folder / "chroma.log"
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        chroma = Path(sys.executable).with_name("chroma")
        argv = [
            str(chroma),
            "run",
            "--path",
            str(self.folder / "chroma"),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
        ]
        self.process = processes.start(
            argv, env={"PATH": "/usr/bin:/bin", "ANONYMIZED_TELEMETRY": "False"}, log=self.log
        )
        processes.wait_for(
            lambda: processes.port_open(self.port), timeout=60, what="chroma", process=self.process, log=self.log
        )

    def stop(self) -> None:
        if self.process is not None:
            processes.stop(self.process)

    def count(self, name: str) -> int:
        return chromadb.HttpClient(host="127.0.0.1", port=self.port).get_collection(name).count()


@contextmanager
def chroma_server(folder: Path) -> Iterator[ChromaServer]:
    server = ChromaServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _wait_run(run_id: int, what: str, *logs: Path) -> Run:
    done = lambda: Run.objects.get(pk=run_id).done  # noqa: E731
    processes.wait_for(done, timeout=180, what=what, log=logs[0])
    run = Run.objects.get(pk=run_id)
    assert run.status == RunStatus.FINISHED, (run.status_reason, processes.tail(logs[0], 60))
    return run


def test_the_production_topology_ingests_runs_streams_across_web_processes_and_fires_schedules(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, login, tmp_path: Path
) -> None:
    owner = Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(make_user("ada")))
    slug = owner.workspace.slug
    key = token_create(user=owner.user, workspace_slug=slug, name="topology").key
    logs = {name: tmp_path / f"{name}.log" for name in ("ingest", "runs", "beat", "web1", "web2")}
    with ExitStack() as stack:
        chroma = stack.enter_context(chroma_server(tmp_path))
        redis = RedisServer(tmp_path)  # of the test's own, so that it can be killed
        redis.start()
        stack.callback(redis.kill)
        env = {
            **process_env,
            **topology.SHARED,
            "REDIS_URL": redis.url,
            "CHROMA_URL": chroma.url,
            "SCHEDULE_TICK_SECONDS": "5",
            "RUN_LEASE_SECONDS": "3",
            "RUN_SWEEP_SECONDS": "2",
        }
        workers = [
            processes.start(
                processes.python(*topology.PROCESSES[service][0], "--hostname", f"{name}@%h"),
                env={**env, **topology.PROCESSES[service][1], **(SLOW_EMBEDDING if name == "ingest" else {})},
                log=logs[name],
            )
            for name, service in (("ingest", "worker-ingest"), ("runs", "worker"))
        ]
        beat = processes.start(processes.python(*topology.PROCESSES["beat"][0]), env=env, log=logs["beat"])
        stack.callback(processes.stop_all, *workers, beat)
        first, _ = stack.enter_context(processes.daphne(env, logs["web1"]))
        second, _ = stack.enter_context(processes.daphne(env, logs["web2"]))
        for name, worker in zip(("ingest", "runs"), workers, strict=True):
            ready = lambda name=name: " ready." in logs[name].read_text()  # noqa: E731
            processes.wait_for(ready, timeout=120, what=name, process=worker, log=logs[name])

        api = stack.enter_context(httpx.Client(base_url=f"{first}/api/v1", headers={"Authorization": f"Bearer {key}"}))
        assert api.post(f"/workspaces/{slug}/corpora", json={"name": "Market"}).status_code == 201
        upload = [("files", (name, data)) for name, data in FILES.items()]
        assert api.post(f"/workspaces/{slug}/corpora/market/files", files=upload).status_code == 202
        corpus = Corpus.objects.get(workspace=owner.workspace, slug="market")
        processes.wait_for(
            lambda: corpus_indexed(corpus, len(FILES)), timeout=180, what="ingestion", log=logs["ingest"]
        )
        assert "ingest" in logs["ingest"].read_text()
        server = chromadb.HttpClient(host="127.0.0.1", port=chroma.port)
        names = [collection.name for collection in server.list_collections()]
        assert any(corpus.collection_name in name for name in names), names  # the chunks are in the Chroma server

        # A run started through the first web process, watched from a page of the second one.
        browser = Browser(second, login(owner.user).cookies["sessionid"].value)
        started = api.post(f"/workspaces/{slug}/runs", json={"question": QUESTION, "rollouts": 2})
        assert started.status_code == 202, started.text
        run_id = started.json()["id"]
        watch = lambda run_id: RunSocket(second.replace("http://", "ws://") + f"/ws/runs/{run_id}/", browser.headers())  # noqa: E731
        with watch(run_id).open() as socket:
            run = _wait_run(run_id, "the question run", logs["runs"], logs["web2"])
            seen = lambda: max(socket.seqs(), default=0) >= run.last_seq  # noqa: E731
            processes.wait_for(seen, timeout=20, what="the second web process's stream", log=logs["web2"])
        assert sorted(set(socket.seqs())) == [event.seq for event in stored_exactly_once(run)]

        report = api.post(f"/workspaces/{slug}/runs", json={"template": "competitor", "subject": "Halvorix"})
        assert report.status_code == 202, report.text
        _wait_run(report.json()["id"], "the competitor report", logs["runs"])
        assert api.get(f"/runs/{report.json()['id']}/report").json()["subject"] == "Halvorix"

        # A schedule made due now: beat's tick fires it, the runs worker runs it.
        investigation = investigation_create(actor=owner, run=run)
        schedule = schedule_save(actor=owner, investigation=investigation, frequency="daily", time_of_day=time(7))
        Schedule.objects.filter(pk=schedule.pk).update(next_run_at=timezone.now() - timedelta(seconds=1))
        fired = lambda: Run.objects.filter(schedule=schedule).exists()  # noqa: E731
        processes.wait_for(fired, timeout=60, what="beat firing the schedule", process=beat, log=logs["beat"])
        _wait_run(Run.objects.get(schedule=schedule).pk, "the scheduled run", logs["runs"])

        # Fault: the Chroma server restarted while files are being embedded: their tasks retry, every file ends
        # indexed and every chunk is in the server once.
        archive = [("files", (name, data)) for name, data in ARCHIVE.items()]
        assert api.post(f"/workspaces/{slug}/corpora", json={"name": "Archive"}).status_code == 201
        assert api.post(f"/workspaces/{slug}/corpora/archive/files", files=archive).status_code == 202
        archived = Corpus.objects.get(workspace=owner.workspace, slug="archive")
        processes.wait_for(
            lambda: UploadFile.objects.filter(upload__corpus=archived, stage=Stage.INDEXED).exists(),
            timeout=120,
            what="the first archive file's vectors",
            log=logs["ingest"],
        )
        chroma.stop()
        met = UploadFile.objects.filter(upload__corpus=archived, error__contains="Chroma server cannot be reached")
        processes.wait_for(met.exists, timeout=60, what="a file meeting the stopped server", log=logs["ingest"])
        chroma.start()
        processes.wait_for(
            lambda: corpus_indexed(archived, len(ARCHIVE)), timeout=180, what="ingestion after", log=logs["ingest"]
        )
        assert not UploadFile.objects.filter(upload__corpus=archived, stage=Stage.FAILED).exists()
        chunks = Chunk.objects.filter(document__corpus=archived).count()
        assert chroma.count(archived.collection_name) == chunks  # every chunk once

        # Fault: the runs worker holding a run is SIGKILLed mid-run (its pool processes with it); the other runs
        # worker takes the run over once the lease has expired and finishes it, every event kept once.
        processes.stop(workers[1])
        slow = {**env, **topology.PROCESSES["worker"][1], "WORKER_WARMUP": SLOW, "SLOW_MODEL_SECONDS": "0.3"}
        pair = [
            processes.worker(slow, tmp_path / f"{name}.log", name, ready="tests.support.slow_model.install done")
            for name in ("runs-a", "runs-b")
        ]
        stack.callback(processes.stop_all, *pair)
        started = api.post(f"/workspaces/{slug}/runs", json={"question": QUESTION, "rollouts": 2, "max_steps": 8})
        doomed_id = started.json()["id"]
        processes.wait_for(
            lambda: RunEvent.objects.filter(run_id=doomed_id, type="turn_started").count() >= 2,
            timeout=60,
            what="the run's first turns",
            log=tmp_path / "runs-a.log",
        )
        owner_pid = int(Run.objects.get(pk=doomed_id).lease_owner.split(":")[1])
        holder = next(worker for worker in pair if os.getpgid(owner_pid) == worker.pid)
        processes.stop(holder, sig=signal.SIGKILL)
        doomed = _wait_run(doomed_id, "the run taken over", tmp_path / "runs-a.log", tmp_path / "runs-b.log")
        kinds = [event.type for event in stored_exactly_once(doomed)]
        assert (doomed.attempts, kinds.count("run_restarted"), kinds[-3]) == (2, 1, "run_finished")

        # Fault: Redis (broker and channel layer) killed mid-run and started again empty 1.5 s later: the run
        # finishes on its first attempt, the page on the second web process gets every event once, and a run started
        # through the first web process afterwards (its Celery producer reconnected) finishes too.
        started = api.post(f"/workspaces/{slug}/runs", json={"question": QUESTION, "rollouts": 2, "max_steps": 8})
        live_id = started.json()["id"]
        with watch(live_id).open() as socket:
            processes.wait_for(lambda: socket.count("turn_started") >= 2, timeout=60, what="the run's first turns")
            assert not Run.objects.get(pk=live_id).done, "the run ended before Redis went away"
            redis.kill()
            clock.sleep(1.5)
            redis.start()
            live = _wait_run(live_id, "the run across the restart", tmp_path / "runs-a.log", tmp_path / "runs-b.log")
            seen = lambda: max(socket.seqs(), default=0) >= live.last_seq  # noqa: E731
            processes.wait_for(seen, timeout=20, what="the stream after Redis's restart", log=logs["web2"])
        assert socket.seqs() == [event.seq for event in stored_exactly_once(live)], socket.closes
        assert live.attempts == 1
        noticed = [(tmp_path / f"{name}.log").read_text() for name in ("runs-a", "runs-b", "ingest")]
        assert sum("Connection to broker lost" in text for text in noticed) >= 2  # the survivor and the ingest worker
        after = api.post(f"/workspaces/{slug}/runs", json={"question": QUESTION, "rollouts": 1})
        assert after.status_code == 202, after.text
        _wait_run(after.json()["id"], "a run started after Redis's restart", tmp_path / "runs-a.log")
    for name in ("ingest", "runs"):  # the killed worker's log is not read: a SIGKILL leaves what it leaves
        text = logs[name].read_text()
        assert "Traceback" not in text, processes.tail(logs[name], 80)
