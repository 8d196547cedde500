"""The dense index of one corpus: a Chroma collection of chunk vectors, texts and metadata."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any, Literal

from chromadb.api import ClientAPI
from chromadb.api.types import Where
from chromadb.errors import ChromaError, NotFoundError

from research.retrieval.embedders import Vectors
from research.retrieval.types import Chunk

GET_PAGE = 2000


class GrepError(ValueError):
    """The pattern is not a valid regular expression for the corpus's regex engine."""


_BODY_TOKENS, _BODY_COUNTER, _FRAME_TOKENS = "_body_tokens", "_body_counter", "_frame_tokens"


def _metadata(chunk: Chunk) -> dict[str, str | int]:
    meta: dict[str, str | int] = {**chunk.metadata, "doc_id": chunk.doc_id, "index": chunk.index, "title": chunk.title}
    if chunk.body_tokens is not None and chunk.frame_tokens is not None:
        meta[_BODY_TOKENS], meta[_BODY_COUNTER] = chunk.body_tokens, chunk.body_counter
        meta[_FRAME_TOKENS] = chunk.frame_tokens
    return meta


def _chunk(chunk_id: str, text: str | None, metadata: Any) -> Chunk:
    meta = dict(metadata or {})
    doc_id, index, title = str(meta.pop("doc_id")), int(meta.pop("index")), str(meta.pop("title", ""))
    body_tokens, body_counter = meta.pop(_BODY_TOKENS, None), str(meta.pop(_BODY_COUNTER, ""))
    frame_tokens = meta.pop(_FRAME_TOKENS, None)
    return Chunk(
        chunk_id,
        doc_id,
        index,
        text or "",
        title,
        {k: str(v) for k, v in meta.items()},
        body_tokens=None if body_tokens is None else int(body_tokens),
        body_counter=body_counter,
        frame_tokens=None if frame_tokens is None else int(frame_tokens),
    )


class DenseIndex:
    def __init__(self, client: ClientAPI, name: str) -> None:
        self._client, self.name = client, name
        self._collection = client.get_or_create_collection(
            name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
        )

    def count(self) -> int:
        return int(self._collection.count())

    def upsert(self, chunks: Sequence[Chunk], vectors: Vectors) -> None:
        batch = max(1, int(self._client.get_max_batch_size()))
        for start in range(0, len(chunks), batch):
            part = chunks[start : start + batch]
            self._collection.upsert(
                ids=[c.chunk_id for c in part],
                embeddings=vectors[start : start + batch],
                documents=[c.text for c in part],
                metadatas=[_metadata(c) for c in part],
            )

    def delete_documents(self, doc_ids: Sequence[str]) -> None:
        if doc_ids:
            members: dict[Literal["$in", "$nin"], list[str | int | float | bool]] = {"$in": list(doc_ids)}
            where: Where = {"doc_id": members}
            self._collection.delete(where=where)

    def query(self, vector: Vectors, *, n: int, exclude: frozenset[str]) -> list[str]:
        """The ids of the ``n`` nearest chunks not in ``exclude``, nearest first. Ids only: fetching metadata
        costs more than the HNSW search itself, and the caller fetches just the chunks it keeps (``get``).
        No ``count()`` first either (a full scan in Chroma): it returns what it has when asked for more."""
        if n <= 0:
            return []
        result = self._collection.query(query_embeddings=vector.reshape(1, -1), n_results=n + len(exclude), include=[])
        return [chunk_id for chunk_id in result["ids"][0] if chunk_id not in exclude][:n]

    def query_scored(self, vector: Vectors, *, n: int, exclude: frozenset[str]) -> list[tuple[str, float]]:
        """The ``n`` nearest (chunk id, cosine distance) pairs not in ``exclude``, nearest first: what several
        corpora embedded by the same model need to merge their rankings (distances are comparable; ranks are
        not). Fetching distances costs little beside the search; still ids only, no text or metadata."""
        if n <= 0:
            return []
        result = self._collection.query(
            query_embeddings=vector.reshape(1, -1), n_results=n + len(exclude), include=["distances"]
        )
        distances = (result["distances"] or [[]])[0]
        pairs = zip(result["ids"][0], distances, strict=True)
        return [(chunk_id, float(distance)) for chunk_id, distance in pairs if chunk_id not in exclude][:n]

    def query_chunks(self, vector: Vectors, *, n: int) -> list[Chunk]:
        """The ``n`` nearest chunks with their texts and metadata in one call (what LangChain's Chroma store
        does; the retrieval benchmark's baseline uses it)."""
        result = self._collection.query(
            query_embeddings=vector.reshape(1, -1), n_results=n, include=["documents", "metadatas"]
        )
        ids, documents, metadatas = result["ids"][0], (result["documents"] or [[]])[0], (result["metadatas"] or [[]])[0]
        return [_chunk(i, d, m) for i, d, m in zip(ids, documents, metadatas, strict=True)]

    def get(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        if not chunk_ids:
            return {}
        result = self._collection.get(ids=list(chunk_ids), include=["documents", "metadatas"])
        return {
            i: _chunk(i, d, m)
            for i, d, m in zip(result["ids"], result["documents"] or [], result["metadatas"] or [], strict=True)
        }

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        return self.documents_chunks([doc_id]).get(doc_id, [])

    def documents_chunks(self, doc_ids: Sequence[str]) -> dict[str, list[Chunk]]:
        """The chunks of several documents in one read, each document's in order (absent documents left out)."""
        if not doc_ids:
            return {}
        members: dict[Literal["$in", "$nin"], list[str | int | float | bool]] = {"$in": list(doc_ids)}
        where: Where = {"doc_id": members}
        result = self._collection.get(where=where, include=["documents", "metadatas"])
        found: dict[str, list[Chunk]] = {}
        for i, d, m in zip(result["ids"], result["documents"] or [], result["metadatas"] or [], strict=True):
            chunk = _chunk(i, d, m)
            found.setdefault(chunk.doc_id, []).append(chunk)
        return {doc_id: sorted(chunks, key=lambda c: c.index) for doc_id, chunks in found.items()}

    def grep(self, pattern: str, *, limit: int, exclude: frozenset[str]) -> list[Chunk]:
        """Chunks whose text matches ``pattern`` (Chroma's linear-time Rust regex), in document order."""
        try:
            result = self._collection.get(
                where_document={"$regex": pattern}, limit=limit + len(exclude), include=["documents", "metadatas"]
            )
        except (ChromaError, ValueError) as error:
            raise GrepError(f"invalid pattern {pattern!r}: {error}") from None
        chunks = [
            _chunk(i, d, m)
            for i, d, m in zip(result["ids"], result["documents"] or [], result["metadatas"] or [], strict=True)
            if i not in exclude
        ]
        return sorted(chunks, key=lambda c: (c.doc_id, c.index))[:limit]

    def iter_headed_texts(self) -> Iterator[tuple[str, str, str, str]]:
        """Every (chunk id, text, title, publisher) in the collection, page by page: the chunk's document's title
        and, where the parser found one, who it says published it ("Halvorix, Inc; halvorix.example")."""
        offset = 0
        while True:
            page = self._collection.get(limit=GET_PAGE, offset=offset, include=["documents", "metadatas"])
            if not page["ids"]:
                return
            metadatas = page["metadatas"] or [{}] * len(page["ids"])
            for chunk_id, text, meta in zip(page["ids"], page["documents"] or [], metadatas, strict=True):
                found = meta or {}
                yield chunk_id, text, str(found.get("title", "")), str(found.get("publisher", ""))
            offset += len(page["ids"])

    def drop(self) -> None:
        with contextlib.suppress(NotFoundError):
            self._client.delete_collection(self.name)
