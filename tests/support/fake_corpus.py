"""An in-memory corpus implementing the harness's Corpus port, recording every call it gets."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

from research.harness.ports import CorpusHit, CorpusResult, CorpusToolError


@dataclass
class FakeCorpus:
    """Documents are {doc_id: [chunk texts]}; search ranks chunks by words shared with the query."""

    documents: dict[str, list[str]]
    calls: list[tuple[str, str, frozenset[str], int]] = field(default_factory=list)
    barrier: threading.Barrier | None = None  # when set, each call waits for the others (proves concurrency)
    per_call: int = 3

    def _hits(self) -> list[CorpusHit]:
        return [
            CorpusHit(chunk_id=f"{doc}#{i}", doc_id=doc, title=doc.title(), score=1.0, text=text)
            for doc, texts in self.documents.items() for i, text in enumerate(texts)
        ]  # fmt: skip

    def _record(self, tool: str, subject: str, exclude: frozenset[str], budget: int) -> None:
        self.calls.append((tool, subject, exclude, budget))
        if self.barrier is not None:
            self.barrier.wait(timeout=5)

    def search(self, query: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        self._record("search", query, exclude, budget)
        words = set(re.findall(r"\w+", query.lower()))
        scored = []
        for hit in self._hits():
            overlap = len(words & set(re.findall(r"\w+", hit.text.lower())))
            if overlap and hit.chunk_id not in exclude:
                scored.append(CorpusHit(hit.chunk_id, hit.doc_id, hit.title, float(overlap), hit.text))
        scored.sort(key=lambda h: (-h.score, h.chunk_id))
        return CorpusResult(hits=tuple(scored[: self.per_call]), omitted=max(0, len(scored) - self.per_call))

    def grep(self, pattern: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        self._record("grep", pattern, exclude, budget)
        try:
            compiled = re.compile(pattern)
        except re.error as error:
            raise CorpusToolError(f"invalid pattern {pattern!r}: {error}") from None
        hits = [h for h in self._hits() if compiled.search(h.text) and h.chunk_id not in exclude]
        return CorpusResult(hits=tuple(hits[:5]))

    def read_document(self, doc_id: str, *, query: str, exclude: frozenset[str], budget: int) -> CorpusResult:
        self._record("read", doc_id, exclude, budget)
        if doc_id not in self.documents:
            raise CorpusToolError(f"no document {doc_id!r}")
        return CorpusResult(hits=tuple(h for h in self._hits() if h.doc_id == doc_id and h.chunk_id not in exclude))
