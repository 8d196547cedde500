"""A model server that misbehaves, seen through a real Celery worker: every kind of fault ends its run failed,
with the cause on the run's page, after bounded retries; a healthy run served by the same server meanwhile
finishes with its documents.

The server is the suite's OpenAI-compatible protocol server on loopback, scripted by the question it is asked:
errors (HTTP 500), an answer slower than the worker's VLLM_TIMEOUT, a body that is not JSON, tool calls that
are not JSON, and reasoning cut at the token limit turn after turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from research.corpora import services
from research.models import Membership, Run, RunStatus
from research.runs import services as runs
from tests.research.runs.conftest import FILES
from tests.support import processes
from tests.support.corpora import corpus_indexed
from tests.support.openai_server import Call, Reply, serve_openai

pytestmark = pytest.mark.services

FAULTS = {  # question -> (the scripted reply, what the run's page must say)
    "Which server error?": (Reply(status=500, error="overloaded"), "HTTP 500: overloaded"),
    "Which slow answer?": (Reply(content="late", delay=6.0), "Timeout"),
    "Which garbage body?": (Reply(raw=b"<html>proxy error</html>"), "not JSON events"),
    "Which broken calls?": (
        Reply(tool_calls=[Call("search_corpus", "{not json")]),
        "none of its tool calls could be read",
    ),
    "Which endless thought?": (
        Reply(reasoning="Let me reconsider. " * 20, finish_reason="length"),
        "cut at the token limit without a tool call",
    ),
}
HEALTHY = "Who sponsors Project Halyard?"


def _question(request: dict[str, Any]) -> str:
    return next(m["content"] for m in request["messages"] if m["role"] == "user")


def _script(request: dict[str, Any]) -> Reply:
    question = _question(request)
    if question in FAULTS:
        return FAULTS[question][0]
    if not any(m["role"] == "tool" for m in request["messages"]):  # the healthy run: search, then answer
        return Reply(tool_calls=[Call("search_corpus", '{"query": "Project Halyard sponsor"}')])
    return Reply(content="Dana Okonkwo sponsors it.")


def test_every_model_server_fault_fails_its_run_with_the_cause_and_spares_the_others(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path
) -> None:
    user = make_user()
    owner = Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(user))
    corpus = services.corpus_create(actor=owner, name="Market")
    log = tmp_path / "worker.log"
    with serve_openai(_script) as server:
        env = {
            **process_env,
            "INFERENCE_BACKEND": "openai",
            "VLLM_BASE_URL": server.base_url,
            "VLLM_MODEL": "test-model",
            "VLLM_TIMEOUT": "1.5",
            "WORKER_CONCURRENCY": "3",
        }
        worker = processes.start(processes.python("-m", "worker"), env=env, log=log)
        try:
            services.upload_create(
                actor=owner, corpus=corpus, files=[services.IncomingFile(n, [d]) for n, d in FILES.items()]
            )
            processes.wait_for(
                lambda: corpus_indexed(corpus, len(FILES)), timeout=120, what="ingestion", process=worker, log=log
            )
            started = {
                question: runs.run_start(actor=owner, question=question, corpora=[corpus], rollouts=2, max_turns=8)
                for question in [*FAULTS, HEALTHY]
            }
            processes.wait_for(
                lambda: all(Run.objects.get(pk=run.pk).done for run in started.values()),
                timeout=240,
                what="every run to end",
                process=worker,
                log=log,
            )
        finally:
            processes.stop(worker)

    client = Client()
    client.force_login(user)
    slug = owner.workspace.slug
    for question, (_, cause) in FAULTS.items():
        run = Run.objects.get(pk=started[question].pk)
        assert run.status == RunStatus.FAILED, (question, run.status, processes.tail(log))
        assert cause in run.status_reason, (question, run.status_reason)
        page = client.get(reverse("run_page", args=[slug, run.pk])).content.decode()
        assert cause in page, question
    healthy = Run.objects.get(pk=started[HEALTHY].pk)
    assert healthy.status == RunStatus.FINISHED, (healthy.status_reason, processes.tail(log))
    assert healthy.result
    timed_out = [r for r in server.requests if _question(r) == "Which slow answer?"]
    assert 2 <= len(timed_out) <= 2 * 4  # retried, and bounded: at most 1 + 3 retries per rollout
