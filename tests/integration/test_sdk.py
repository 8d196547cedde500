"""The SDK against a live server (Daphne and a Celery worker): the seed's example as a command, a search with the
sync and the async agent, a webhook the worker signs and sends, a stream resumed after a given event and after its
connection was cut mid-run, typed errors."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from context1_web_sdk import (
    AsyncSearchAgent,
    AuthenticationError,
    Client,
    NotFoundError,
    SearchAgent,
    verify_webhook,
)

from research.api.tokens import token_create
from research.corpora import services
from research.models import Membership, Run
from tests.research.runs.conftest import FILES, QUESTION
from tests.support import processes
from tests.support.corpora import ingest_with_worker
from tests.support.tcp_proxy import tcp_proxy
from tests.support.webhook_receiver import webhook_receiver

pytestmark = pytest.mark.services


def test_the_sdk_searches_streams_and_fails_typed_against_a_live_server(  # type: ignore[no-untyped-def]
    process_env, make_user, make_workspace, tmp_path: Path
) -> None:
    owner = Membership.objects.select_related("workspace", "user").get(workspace=make_workspace(make_user()))
    corpus = services.corpus_create(actor=owner, name="Market")
    slug = owner.workspace.slug
    with (
        webhook_receiver() as receiver,  # bound before the stack starts: the processes allow its address
        processes.web_and_worker(
            {
                **process_env,
                "WEBHOOK_ALLOWED_HOSTS": f"127.0.0.1:{receiver.port}",
                # every model call a little slower, so the stream below is cut while its run is still going (a run
                # that ends before the cut leaves nothing to resume)
                "WORKER_WARMUP": "research.platform.warmup.open_chroma,tests.support.slow_model.install",
                "SLOW_MODEL_SECONDS": "0.2",
            },
            tmp_path,
            ready=" ready.",
        ) as stack,
    ):
        ingest_with_worker(owner, corpus, FILES, stack)
        key = token_create(user=owner.user, workspace_slug=slug, name="sdk").key
        with SearchAgent(model="chromadb/context-1", base_url=stack.base, api_key=key, workspace=slug) as agent:
            result = agent.search(query=QUESTION, max_steps=5, context_window=32768)
        assert result.status == "finished", stack.tails()
        assert result.answer
        assert result.sources
        assert [source.rank for source in result.sources] == list(range(1, len(result.sources) + 1))
        assert result.num_queries >= 1
        assert result.usage.turns >= 1

        # A run started with a webhook: the worker POSTs its finish, signed with the secret given.
        with SearchAgent(base_url=stack.base, api_key=key, workspace=slug) as agent:
            hooked = agent.start(QUESTION, rollouts=1, webhook_url=receiver.url, webhook_secret="s" * 24)
            agent.wait(hooked.id)
        processes.wait_for(lambda: bool(receiver.received), timeout=30, what="the webhook", process=stack.worker)
        announced = verify_webhook(receiver.received[0].body, receiver.received[0].headers, secret="s" * 24)
        assert (announced["type"], announced["run"]["id"]) == ("run.finished", hooked.id)

        async def search_async() -> object:
            async with AsyncSearchAgent(base_url=stack.base, api_key=key, workspace=slug) as agent:
                return await agent.search(QUESTION, max_steps=5, rollouts=2)

        second = asyncio.run(search_async())
        assert second.status == "finished"  # type: ignore[attr-defined]
        assert second.id != result.id  # type: ignore[attr-defined]

        with Client(base_url=stack.base, api_key=key) as client:
            every = [event.seq for event in client.events(result.id)]
            resumed = [event.seq for event in client.events(result.id, after=5)]
        assert every == list(range(1, every[-1] + 1))
        assert resumed == every[5:]

        # A live stream whose connection is cut after its third event resumes where it stopped: no gap, no repeat.
        with tcp_proxy(("127.0.0.1", int(stack.base.rsplit(":", 1)[1]))) as proxy:
            base = f"http://127.0.0.1:{proxy.port}"
            with SearchAgent(base_url=base, api_key=key, workspace=slug) as agent:
                seen = []
                for event in agent.stream(QUESTION, max_steps=5, rollouts=2):
                    seen.append(event.seq)
                    if len(seen) == 3:
                        proxy.cut()
                        proxy.restore()
            assert proxy.accepted >= 2  # the connection cut, and the one the stream resumed on
        streamed = Run.objects.get(pk=max(Run.objects.filter(workspace=owner.workspace).values_list("pk", flat=True)))
        assert streamed.status == "finished"
        assert seen == list(range(1, streamed.last_seq + 1))

        with pytest.raises(AuthenticationError), SearchAgent(base_url=stack.base, api_key="c1w_x", workspace=slug) as a:
            a.search("anything")
        with pytest.raises(NotFoundError), SearchAgent(base_url=stack.base, api_key=key, workspace="elsewhere") as a:
            a.search("anything")

        example = Path(__file__).resolve().parents[2] / "examples" / "search_agent.py"
        argv = [sys.executable, str(example), "--base-url", stack.base, "--api-key", key, "--workspace", slug, QUESTION]
        printed = subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)
        assert printed.returncode == 0, printed.stderr
        shown = json.loads(printed.stdout)
        assert shown["answer"]
        assert shown["sources"]
        assert shown["num_queries"] >= 1
