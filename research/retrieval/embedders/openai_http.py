"""An OpenAI-compatible ``/v1/embeddings`` endpoint (vLLM, TEI, ...), with timeouts and bounded retries."""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import numpy as np

from research.protocol.retry import Retry, exponential
from research.retrieval.embedders import EmbedderSettings, EmbeddingError, EmbeddingUnavailable, Vectors, normalise


def factory(settings: EmbedderSettings) -> OpenAIEmbedder:
    if not settings.url or not settings.model:
        raise ValueError("the openai embedder needs a server URL and a model name (EMBEDDINGS_URL, EMBEDDINGS_MODEL)")
    return OpenAIEmbedder(base_url=settings.url, model=settings.model)


class OpenAIEmbedder:
    """Retries connection failures, timeouts and 5xx ``max_retries`` times (``backoff * 2**n`` seconds apart),
    then raises ``EmbeddingUnavailable``; any other error status raises ``EmbeddingError`` at once."""

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 30.0,
        batch_size: int = 64,
        max_retries: int = 3,
        backoff: float = 0.5,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"), headers=headers, timeout=timeout, transport=transport
        )
        self._model, self._batch_size = model, batch_size
        self._retry = Retry(on=EmbeddingUnavailable, delays=exponential(max_retries, backoff))

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    def _post(self, texts: list[str]) -> list[list[float]]:
        return self._retry.call(lambda: self._post_once(texts))

    def _post_once(self, texts: list[str]) -> list[list[float]]:
        try:
            response = self._client.post("/v1/embeddings", json={"model": self._model, "input": texts})
        except httpx.TransportError as error:
            raise EmbeddingUnavailable(f"embedding endpoint unreachable: {error}") from None
        if response.status_code < 400:
            return _vectors_of(response, len(texts))
        failure = EmbeddingUnavailable if response.status_code >= 500 else EmbeddingError
        raise failure(f"embedding endpoint answered {response.status_code}: {response.text[:200]}")

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            rows.extend(self._post(list(texts[start : start + self._batch_size])))
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return normalise(np.asarray(rows, dtype=np.float32))

    def embed_query(self, text: str) -> Vectors:
        row: Vectors = self.embed_documents([text])[0]
        return row

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self.embed_documents(texts)


def _vectors_of(response: httpx.Response, expected: int) -> list[list[float]]:
    try:
        data = sorted(response.json()["data"], key=lambda item: item["index"])
        vectors = [list(map(float, item["embedding"])) for item in data]
    except (ValueError, KeyError, TypeError) as error:
        raise EmbeddingError(f"malformed embeddings response: {error}") from None
    if len(vectors) != expected or len({len(v) for v in vectors}) > 1:
        raise EmbeddingError(
            f"embeddings response has {len(vectors)} vectors of mixed or wrong shape for {expected} texts"
        )
    return vectors
