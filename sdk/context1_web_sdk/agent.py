"""``SearchAgent``: the Context-1 search agent of a Context-1 Web server, over its API.

    agent = SearchAgent(model="chromadb/context-1", base_url=..., api_key=..., workspace="demo-workspace")
    result = agent.search(query="...", max_steps=5, context_window=32768)
    print(result.answer, len(result.sources), result.num_queries, result.pruned_docs)

``search`` starts a run and waits for it (following its events, so it returns as soon as the run ends);
``stream`` yields its typed events as they happen and resumes after a dropped connection; ``report`` writes a
competitor report, prospect brief or ICP check. ``AsyncSearchAgent`` has the same methods, awaited.
``model`` names the model the server's search agent runs (its ``VLLM_MODEL``); the server decides which serves.
``SearchAgent(documents="./folder")`` is local mode: no server, the harness over that folder in this process
(Context-1 Web installed here; ``search`` only). ``start(..., webhook_url=..., webhook_secret=...)`` has the
server POST to that address when the run finishes or fails, signed with the secret (see ``verify_webhook``).
"""

from __future__ import annotations

import asyncio
import functools
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

from context1_web_sdk.errors import Context1Error
from context1_web_sdk.http import AsyncClient, Client
from context1_web_sdk.local import ServerOnlyError, open_local
from context1_web_sdk.models import Event, Run, SearchResult, search_result


class RunFailedError(Context1Error):
    """The run ended failed or cancelled; ``run`` says why (``status_reason``)."""

    def __init__(self, run: Run) -> None:
        super().__init__(f"run {run.id} {run.status}: {run.status_reason}")
        self.run = run


def _body(query: str, template: str, subject: str, corpora: list[str] | None, **options: Any) -> dict[str, Any]:
    """A run's start request: the options given (a webhook only when there is one)."""
    body: dict[str, Any] = {"question": query, "template": template, "subject": subject, **options}
    if not body["webhook_url"]:
        del body["webhook_url"], body["webhook_secret"]
    if corpora is not None:
        body["corpora"] = corpora
    return body


def _ended(detail: dict[str, Any]) -> Run:
    run = Run(**{key: detail[key] for key in Run.model_fields if key in detail})
    if run.status != "finished":
        raise RunFailedError(run)
    return run


class SearchAgent:
    def __init__(
        self,
        model: str = "chromadb/context-1",
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        corpora: list[str] | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        documents: str | os.PathLike[str] | None = None,
    ) -> None:
        self.model, self.corpora = model, corpora
        self.local = open_local(documents, model) if documents is not None else None
        if self.local is not None:  # local mode: no server, no token
            self._client: Client | None = None
            self.workspace = ""
            return
        self._client = Client(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries)
        self.workspace = workspace or _workspace_from_env()

    @property
    def client(self) -> Client:
        if self._client is None:
            raise ServerOnlyError("Starting a run, streaming it or a report")
        return self._client

    def start(
        self,
        query: str = "",
        *,
        template: str = "question",
        subject: str = "",
        max_steps: int = 16,
        context_window: int = 32768,
        rollouts: int = 4,
        web: bool = False,
        webhook_url: str = "",
        webhook_secret: str = "",
    ) -> Run:
        """Start a run (retried safely: the request carries its own Idempotency-Key)."""
        body = _body(
            query,
            template,
            subject,
            self.corpora,
            rollouts=rollouts,
            web=web,
            max_steps=max_steps,
            context_window=context_window,
            webhook_url=webhook_url,
            webhook_secret=webhook_secret,
        )
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        return Run(**self.client.request("POST", f"/workspaces/{self.workspace}/runs", json=body, headers=headers))

    def stream(self, query: str, **options: Any) -> Iterator[Event]:
        """Start a search and yield its events as they happen, to its last."""
        run = self.start(query, **options)
        yield from self.client.events(run.id)

    def wait(self, run_id: int) -> dict[str, Any]:
        """Follow the run's events to its end; its detail."""
        for _ in self.client.events(run_id):
            pass
        return self.client.request("GET", f"/runs/{run_id}")  # type: ignore[no-any-return]

    def search(
        self, query: str, *, max_steps: int = 16, context_window: int = 32768, rollouts: int = 4, web: bool = False
    ) -> SearchResult:
        if self.local is not None:
            detail = self.local.search(query, max_steps=max_steps, context_window=context_window, rollouts=rollouts)
            _ended(detail)
            return search_result(detail, "")
        run = self.start(query, max_steps=max_steps, context_window=context_window, rollouts=rollouts, web=web)
        detail = self.wait(run.id)
        _ended(detail)
        return search_result(detail, self.client.base_url)

    def report(self, template: str, company: str, **options: Any) -> dict[str, Any]:
        """A competitor report, prospect brief or ICP check (``template``) about ``company``: the report's JSON."""
        run = self.start(template=template, subject=company, **options)
        _ended(self.wait(run.id))
        return self.client.request("GET", f"/runs/{run.id}/report")  # type: ignore[no-any-return]

    def close(self) -> None:
        if self.local is not None:
            self.local.close()
        if self._client is not None:
            self._client.close()

    def __enter__(self) -> SearchAgent:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncSearchAgent:
    def __init__(
        self,
        model: str = "chromadb/context-1",
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        corpora: list[str] | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        documents: str | os.PathLike[str] | None = None,
    ) -> None:
        self.model, self.corpora = model, corpora
        self.local = open_local(documents, model) if documents is not None else None
        if self.local is not None:  # local mode: no server, no token
            self._client: AsyncClient | None = None
            self.workspace = ""
            return
        self._client = AsyncClient(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries)
        self.workspace = workspace or _workspace_from_env()

    @property
    def client(self) -> AsyncClient:
        if self._client is None:
            raise ServerOnlyError("Starting a run, streaming it or a report")
        return self._client

    async def start(
        self,
        query: str = "",
        *,
        template: str = "question",
        subject: str = "",
        max_steps: int = 16,
        context_window: int = 32768,
        rollouts: int = 4,
        web: bool = False,
        webhook_url: str = "",
        webhook_secret: str = "",
    ) -> Run:
        body = _body(
            query,
            template,
            subject,
            self.corpora,
            rollouts=rollouts,
            web=web,
            max_steps=max_steps,
            context_window=context_window,
            webhook_url=webhook_url,
            webhook_secret=webhook_secret,
        )
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        answer = await self.client.request("POST", f"/workspaces/{self.workspace}/runs", json=body, headers=headers)
        return Run(**answer)

    async def stream(self, query: str, **options: Any) -> AsyncIterator[Event]:
        run = await self.start(query, **options)
        async for event in self.client.events(run.id):
            yield event

    async def wait(self, run_id: int) -> dict[str, Any]:
        async for _ in self.client.events(run_id):
            pass
        return await self.client.request("GET", f"/runs/{run_id}")  # type: ignore[no-any-return]

    async def search(
        self, query: str, *, max_steps: int = 16, context_window: int = 32768, rollouts: int = 4, web: bool = False
    ) -> SearchResult:
        if self.local is not None:
            search = functools.partial(self.local.search, max_steps=max_steps, context_window=context_window)
            detail = await asyncio.to_thread(search, query, rollouts=rollouts)
            _ended(detail)
            return search_result(detail, "")
        run = await self.start(query, max_steps=max_steps, context_window=context_window, rollouts=rollouts, web=web)
        detail = await self.wait(run.id)
        _ended(detail)
        return search_result(detail, self.client.base_url)

    async def report(self, template: str, company: str, **options: Any) -> dict[str, Any]:
        run = await self.start(template=template, subject=company, **options)
        _ended(await self.wait(run.id))
        return await self.client.request("GET", f"/runs/{run.id}/report")  # type: ignore[no-any-return]

    async def close(self) -> None:
        if self.local is not None:
            self.local.close()
        if self._client is not None:
            await self._client.close()

    async def __aenter__(self) -> AsyncSearchAgent:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()


def _workspace_from_env() -> str:
    workspace = os.environ.get("CONTEXT1_WORKSPACE", "")
    if not workspace:
        raise Context1Error("No workspace: pass workspace= (its slug, in the page's URL) or set CONTEXT1_WORKSPACE.")
    return workspace
