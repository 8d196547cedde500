"""Retrieval quality on a QA dataset: recall@k of supporting documents for BM25, dense and their RRF fusion."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from research.evaluation.formats import Task
from research.retrieval.corpus import HybridCorpus
from research.retrieval.types import doc_id_of

RETRIEVERS = ("bm25", "dense", "hybrid")
NOTHING: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Recall:
    bm25: float
    dense: float
    hybrid: float


def distinct_documents(chunk_ids: Iterable[str]) -> list[str]:
    """The documents of ranked chunks, each at its best rank."""
    return list(dict.fromkeys(doc_id_of(chunk_id) for chunk_id in chunk_ids))


def recall_at(gold: Sequence[str], ranked_docs: Sequence[str], k: int) -> float:
    """The fraction of ``gold`` documents among the first ``k`` of ``ranked_docs``."""
    if not gold:
        raise ValueError("a task without supporting documents has no recall")
    return len(set(gold) & set(ranked_docs[:k])) / len(set(gold))


def rankings(corpus: HybridCorpus, question: str) -> dict[str, list[str]]:
    """Documents ranked by each retriever: BM25 and dense alone (``candidates`` chunks each) and our RRF fusion."""
    n = corpus.config.candidates
    bm25 = [chunk_id for chunk_id, _ in corpus.sparse.query(question, n=n, exclude=NOTHING)]
    dense = corpus.dense.query(corpus.embedder.embed_query(question), n=n, exclude=NOTHING)
    hybrid = [item.chunk_id for item in corpus.candidates(question, exclude=NOTHING)]
    return {"bm25": distinct_documents(bm25), "dense": distinct_documents(dense), "hybrid": distinct_documents(hybrid)}


def mean_recalls(corpus: HybridCorpus, tasks: Sequence[Task], ks: Sequence[int]) -> dict[int, Recall]:
    """Recall@k of each retriever, averaged over the tasks that have supporting documents."""
    totals = {k: dict.fromkeys(RETRIEVERS, 0.0) for k in ks}
    scored = [task for task in tasks if task.supporting_doc_ids]
    for task in scored:
        ranked = rankings(corpus, task.question)
        for k in ks:
            for name in RETRIEVERS:
                totals[k][name] += recall_at(task.supporting_doc_ids, ranked[name], k)
    count = max(1, len(scored))
    return {k: Recall(**{name: round(total / count, 4) for name, total in totals[k].items()}) for k in ks}
