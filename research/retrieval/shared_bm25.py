"""BM25 over several corpora as if they were one index: each corpus's postings rescored with shared statistics.

One bm25s index per corpus stores, for every (term, chunk), ``idf(df, N) * tf / (tf + K(dl, avgdl))``
(Lucene's BM25: ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))``, ``K = k1 * (1 - b + b * dl / avgdl)``)
with its own corpus's document frequency ``df``, chunk count ``N`` and mean length ``avgdl``. Summed
over corpora these statistics are those of one index holding every chunk, so for each query term in
each corpus the term frequency is recovered from the stored score (``tf = x K / (1 - x)`` with
``x = score / idf``: a whole number, so rounding removes float32 error) and the score recomputed with
the shared ``df``, ``N`` and ``avgdl``. The cost is what bm25s itself does per query (a pass over the
query terms' postings, and a top-k), per corpus; nothing is built or cached per set of corpora.

A version written before chunk lengths were kept (``SparseSnapshot.lengths`` is None) makes the set
fall back to shared IDF with each corpus's own length normalisation (exact IDF, approximate lengths)
until that corpus is rebuilt. A chunk id present in two corpora (the same document uploaded to both)
is ranked once, at its best score.

Each corpus is scored with the query tokenized in its own index's language (``SparseSnapshot.language``), as
it alone would score it; a term's shared document frequency counts every corpus whose index holds that term
(the same string), so a set of corpora in one language ranks exactly as one index of that language would. In
a set mixing English and French corpora, each corpus keeps its own stop words and stemming: a term the two
tokenizers agree on ("recrut", a product name) shares its statistics across them, and one they spell
differently ("societ" in French, "société" in English) is rare in each, as in one index holding both forms.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from research.retrieval.sparse import SparseSnapshot, tokenize

Scores = np.ndarray[Any, np.dtype[np.float64]]


def lucene_idf(df: int, n: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def _column(snapshot: SparseSnapshot, term: str) -> tuple[int, int]:
    """The span of ``term``'s postings in the snapshot's CSC score matrix (empty when the term is unknown)."""
    retriever = snapshot.retriever
    column = retriever.vocab_dict.get(term)
    if column is None:
        return 0, 0
    indptr = retriever.scores["indptr"]
    return int(indptr[column]), int(indptr[column + 1])


@dataclass(frozen=True)
class Statistics:
    """What one index over every corpus would hold: chunk count, each query term's document frequency, and the
    mean chunk length (None when a corpus does not know its chunks' lengths)."""

    documents: int
    frequencies: dict[str, int]
    mean_length: float | None

    @classmethod
    def of(cls, snapshots: Sequence[SparseSnapshot], terms: Sequence[str]) -> Statistics:
        documents = sum(len(s.ids) for s in snapshots)
        frequencies = {term: sum(_span(s, term) for s in snapshots) for term in terms}
        known = all(s.lengths is not None for s in snapshots)
        total = sum(int(s.lengths.sum()) for s in snapshots if s.lengths is not None)
        return cls(documents, frequencies, total / documents if known and documents else None)


def _span(snapshot: SparseSnapshot, term: str) -> int:
    start, end = _column(snapshot, term)
    return end - start


def _check(snapshot: SparseSnapshot) -> None:
    retriever = snapshot.retriever
    if (retriever.method, retriever.idf_method) != ("lucene", "lucene"):
        raise ValueError(f"shared BM25 statistics need bm25s's lucene scoring, not {retriever.method!r}")


Rescale = Callable[[Scores, np.ndarray[Any, Any]], Scores]


def _length_rescale(snapshot: SparseSnapshot, shared: Statistics) -> Rescale | None:
    """A function from (``tf / (tf + K)`` under the corpus's mean length, the chunks' rows) to the same under
    the shared mean length; None when lengths are unknown (then only IDF is shared)."""
    lengths, shared_mean = snapshot.lengths, shared.mean_length
    if lengths is None or shared_mean is None or not lengths.sum():
        return None
    k1, b, local_mean = float(snapshot.retriever.k1), float(snapshot.retriever.b), float(lengths.mean())

    def rescale(share: Scores, rows: np.ndarray[Any, Any]) -> Scores:
        chunk_lengths = lengths[rows]
        local_k = k1 * (1 - b + b * chunk_lengths / local_mean)
        shared_k = k1 * (1 - b + b * chunk_lengths / shared_mean)
        tf = np.maximum(np.rint(share * local_k / np.maximum(1 - share, 1e-12)), 1.0)  # a whole number
        result: Scores = tf / (tf + shared_k)
        return result

    return rescale


def corpus_scores(snapshot: SparseSnapshot, terms: Counter[str], shared: Statistics) -> Scores:
    """Every chunk's BM25 score in ``snapshot`` under the shared statistics (0 for chunks without a query term)."""
    _check(snapshot)
    scores, count = snapshot.retriever.scores, len(snapshot.ids)
    rescale = _length_rescale(snapshot, shared)
    rows_parts: list[np.ndarray[Any, Any]] = []
    weight_parts: list[Scores] = []
    for term, times in terms.items():
        start, end = _column(snapshot, term)
        if start == end:
            continue
        rows, stored = scores["indices"][start:end], scores["data"][start:end].astype(np.float64)
        local_idf, shared_idf = lucene_idf(end - start, count), lucene_idf(shared.frequencies[term], shared.documents)
        if rescale is None:
            weights = stored * (shared_idf / local_idf)
        else:
            weights = rescale(stored / local_idf, rows) * shared_idf
        rows_parts.append(rows)
        weight_parts.append(weights * times)
    if not rows_parts:
        return np.zeros(count)
    summed = np.bincount(np.concatenate(rows_parts), weights=np.concatenate(weight_parts), minlength=count)
    return np.asarray(summed, dtype=np.float64)


def _best(snapshot: SparseSnapshot, scores: Scores, k: int) -> list[tuple[str, float]]:
    """The ``k`` best (chunk id, score) pairs with a positive score."""
    k = min(k, len(scores))
    if k <= 0:
        return []
    top = np.argpartition(-scores, k - 1)[:k]
    return [(snapshot.ids[int(i)], float(scores[i])) for i in top if scores[i] > 0]


def query(
    snapshots: Sequence[SparseSnapshot], text: str, *, n: int, exclude: frozenset[str]
) -> list[tuple[str, float]]:
    """The ``n`` best (chunk id, BM25 score) pairs over every snapshot as one index, not in ``exclude``; best
    first, ties by chunk id. The query is tokenized in each snapshot's language."""
    if not snapshots or n <= 0:
        return []
    terms = {language: Counter(tokenize([text], language)[0]) for language in {s.language for s in snapshots}}
    every_term = sorted(set().union(*terms.values()))
    if not every_term:
        return []
    shared = Statistics.of(snapshots, every_term)
    hits = [
        hit
        for snapshot in snapshots
        for hit in _best(snapshot, corpus_scores(snapshot, terms[snapshot.language], shared), n + len(exclude))
    ]
    hits.sort(key=lambda hit: (-hit[1], hit[0]))
    ranked = dict.fromkeys(chunk_id for chunk_id, _ in hits if chunk_id not in exclude)
    scores = dict(reversed(hits))  # each id's best score
    return [(chunk_id, scores[chunk_id]) for chunk_id in list(ranked)[:n]]
