"""What the SDK returns: Pydantic models of the API's bodies (the server's OpenAPI document, /api/v1/openapi.json,
describes the same fields; a test checks that they agree)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class Citation(BaseModel):
    doc_id: str
    chunk_id: str
    quote: str
    source: str = ""


class Claim(BaseModel):
    text: str
    citations: list[Citation] = Field(default_factory=list)


class Source(BaseModel):
    """A supporting document: its title and id, the chunk and quote a claim cites from it (when one does), its fused
    score and its rank (1 = first)."""

    title: str
    document: str
    chunk: str | None = None
    quote: str | None = None
    score: float
    rank: int


class Usage(BaseModel):
    tokens: int
    turns: int
    tool_calls: int


class Run(BaseModel):
    id: int
    status: str
    status_reason: str = ""
    template: str
    question: str
    subject: str = ""
    corpora: list[str] = Field(default_factory=list)
    url: str
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    webhook_url: str = ""

    @property
    def done(self) -> bool:
        return self.status in {"finished", "failed", "cancelled"}


class SearchResult(BaseModel):
    """A finished search: the written answer with its claims, the ranked sources, how many searches it ran and how
    many chunks it pruned from its context, and what it used."""

    id: int
    url: str
    status: str
    answer: str
    claims: list[Claim] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    num_queries: int
    pruned_docs: int
    usage: Usage


class Event(BaseModel):
    """One stored event of a run, as the page receives it: ``seq`` numbers a run's events 1, 2, 3 ..."""

    seq: int
    type: str
    attempt: int = 1
    at: datetime
    payload: dict[str, Any] = Field(default_factory=dict)


def search_result(detail: dict[str, Any], base_url: str) -> SearchResult:
    """A run's detail (``GET /api/v1/runs/{id}``) as a ``SearchResult``: each ranked document with the first claim's
    citation of it."""
    answer = detail.get("answer") or {"text": "", "claims": []}
    cited: dict[str, Citation] = {}
    for claim in answer["claims"]:
        for citation in claim["citations"]:
            cited.setdefault(citation["doc_id"], Citation(**citation))
    sources = [
        Source(
            title=document["title"],
            document=document["doc_id"],
            chunk=cited[document["doc_id"]].chunk_id if document["doc_id"] in cited else None,
            quote=cited[document["doc_id"]].quote if document["doc_id"] in cited else None,
            score=document["score"],
            rank=rank,
        )
        for rank, document in enumerate(detail.get("sources", []), start=1)
    ]
    return SearchResult(
        id=detail["id"],
        url=base_url.rstrip("/") + detail["url"],
        status=detail["status"],
        answer=answer["text"],
        claims=[Claim(**claim) for claim in answer["claims"]],
        sources=sources,
        num_queries=detail["num_queries"],
        pruned_docs=detail["pruned_docs"],
        usage=Usage(**detail["usage"]),
    )
