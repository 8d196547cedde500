"""An HTTP ``/rerank`` endpoint: vLLM and Cohere (``results[].relevance_score``) or TEI (``[{index, score}]``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx

from research.retrieval.rerankers import RerankError, RerankerSettings


def factory(settings: RerankerSettings) -> HttpReranker:
    if not settings.url:
        raise ValueError("the http reranker needs the URL of its /rerank endpoint (RERANKER_URL)")
    return HttpReranker(url=settings.url, model=settings.model)


class HttpReranker:
    def __init__(
        self,
        *,
        url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 15.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(headers=headers, timeout=timeout, transport=transport)
        self._url, self._model = url, model

    @property
    def name(self) -> str:
        return f"http:{self._model}"

    def scores(self, query: str, texts: Sequence[str]) -> list[float] | None:
        if not texts:
            return []
        body = {"model": self._model, "query": query, "documents": list(texts), "texts": list(texts)}
        try:
            response = self._client.post(self._url, json=body)
            response.raise_for_status()
            return _parse(response.json(), len(texts))
        except httpx.HTTPError as error:
            raise RerankError(f"rerank endpoint failed: {error}") from None


def _parse(payload: Any, expected: int) -> list[float]:
    items = payload.get("results") if isinstance(payload, dict) else payload
    if not isinstance(items, list):
        raise RerankError("malformed rerank response: no results list")
    scores: list[float | None] = [None] * expected
    for item in items:
        try:
            index = int(item["index"])
            scores[index] = float(item.get("relevance_score", item.get("score")))
        except (KeyError, TypeError, ValueError, IndexError):
            raise RerankError(f"malformed rerank result: {item!r:.100}") from None
    if any(score is None for score in scores):
        raise RerankError("rerank response did not score every document")
    return [float(score) for score in scores if score is not None]
