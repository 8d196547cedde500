"""The hybrid corpus (one, or several as one) as the harness's ``Corpus`` port: tool results mapped to its types."""

from __future__ import annotations

from research.harness.ports import CorpusHit, CorpusResult, CorpusToolError
from research.protocol import wire
from research.retrieval.corpus import SearchableCorpus
from research.retrieval.dense import GrepError
from research.retrieval.packing import costs
from research.retrieval.tokens import TokenCounter
from research.retrieval.types import ToolResult


def _result(result: ToolResult, counter: TokenCounter) -> CorpusResult:
    """Hits with their rendered token counts (from the counts stored at indexing: cheap), except a cut chunk."""
    cut = [item.chunk.text.endswith(wire.TRUNCATION_MARKER) and result.truncated for item in result.chunks]
    whole = [item for item, was_cut in zip(result.chunks, cut, strict=True) if not was_cut]
    counts = iter(costs(whole, counter))
    hits = tuple(
        CorpusHit(
            chunk_id=item.chunk_id,
            doc_id=item.chunk.doc_id,
            title=item.chunk.title,
            score=item.score,
            text=item.chunk.text,
            truncated=was_cut,
            tokens=None if was_cut else next(counts),
            counter=counter.name,
        )
        for item, was_cut in zip(result.chunks, cut, strict=True)
    )
    return CorpusResult(hits=hits, omitted=result.omitted, truncated=result.truncated, note=result.note)


Searchable = SearchableCorpus  # a HybridCorpus, or a CorpusSet of several searched as one


class CorpusPort:
    """Adapts a :class:`SearchableCorpus` to the harness (search, grep, read with exclusions and token caps)."""

    def __init__(self, corpus: SearchableCorpus) -> None:
        self.corpus = corpus

    def search(self, query: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        return _result(self.corpus.search(query, exclude=exclude, budget=budget), self.corpus.counter)

    def grep(self, pattern: str, *, exclude: frozenset[str], budget: int) -> CorpusResult:
        try:
            return _result(self.corpus.grep(pattern, exclude=exclude, budget=budget), self.corpus.counter)
        except GrepError as error:
            raise CorpusToolError(str(error)) from None

    def read_document(self, doc_id: str, *, query: str, exclude: frozenset[str], budget: int) -> CorpusResult:
        result = self.corpus.read_document(doc_id, budget=budget, query=query, exclude=exclude)
        if not result.chunks and "no unseen chunks" in result.note and not self.corpus.has_document(doc_id):
            raise CorpusToolError(f"no document {doc_id!r} in this corpus (use a doc id from the results)")
        return _result(result, self.corpus.counter)
