"""A run's corpora as what its tools search: one corpus's index as it is, several searched as one index.

The Django side only picks the corpora (in a stable order: the first that holds a document is the one
``read_document`` reads); ranking across them is ``research.retrieval.corpus_set.CorpusSet``: BM25
with the statistics of their union, dense by distance, one fusion and one packing, as one corpus
holding all their chunks would rank them.
"""

from __future__ import annotations

from collections.abc import Sequence

from research.models import Corpus
from research.platform.composition import corpus_index
from research.retrieval.corpus import SearchableCorpus
from research.retrieval.corpus_set import CorpusSet


def corpora_searched(corpora: Sequence[Corpus]) -> SearchableCorpus:
    """The index of ``corpora`` (cached per process, per corpus): the one corpus's, or a set of them."""
    if not corpora:
        raise ValueError("a run needs at least one corpus")
    indexes = [corpus_index(corpus) for corpus in corpora]
    return indexes[0] if len(indexes) == 1 else CorpusSet(indexes)
