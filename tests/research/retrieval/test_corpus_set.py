"""Several corpora searched as one (CorpusSet): they rank as one corpus holding all their chunks would.

Real Chroma and bm25s, the hashing embedder. The reference is a HybridCorpus over the union of the
chunks; rankings are compared with equal scores put in chunk-id order (the one-corpus path leaves
ties in the order its libraries return them).
"""

from __future__ import annotations

import itertools
import math
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from chromadb.api import ClientAPI
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from research.harness.ports import CorpusToolError
from research.protocol.fusion import Fused, rrf
from research.retrieval.corpus import HybridCorpus, SearchableCorpus, SearchConfig
from research.retrieval.corpus_set import CorpusSet
from research.retrieval.dense import DenseIndex, GrepError
from research.retrieval.embedders.hashing import HashingEmbedder
from research.retrieval.port import CorpusPort
from research.retrieval.rerankers import NoReranker
from research.retrieval.sparse import SparseIndex
from research.retrieval.tokens import EstimatingCounter
from research.retrieval.types import Chunk, chunk_id_for
from tests.research.retrieval.conftest import make_corpus

NOTHING: frozenset[str] = frozenset()
WORDS = "globex pricing june nimbus hiring europe banks retail seat vector search plan team cloud robot oslo".split()
_names = itertools.count()


def _chunks(doc_id: str, texts: Sequence[str]) -> list[Chunk]:
    return [Chunk(chunk_id_for(doc_id, i), doc_id, i, text, title=doc_id.title()) for i, text in enumerate(texts)]


def _fill(corpus: HybridCorpus, docs: dict[str, list[str]]) -> HybridCorpus:
    for doc_id, texts in docs.items():
        corpus.add(_chunks(doc_id, texts))
    corpus.refresh_sparse()
    return corpus


class Corpora:
    """Builds filled corpora on one Chroma client and drops them all at the end."""

    def __init__(self, chroma: ClientAPI, folder: Path) -> None:
        self.chroma, self.folder, self.made = chroma, folder, list[HybridCorpus]()

    def __call__(self, docs: dict[str, list[str]], config: SearchConfig | None = None) -> HybridCorpus:
        self.made.append(_fill(make_corpus(self.chroma, self.folder, config), docs))
        return self.made[-1]

    def drop(self) -> None:
        for corpus in self.made:
            corpus.dense.drop()
            corpus.close()
        self.made.clear()


@pytest.fixture
def corpora(chroma: ClientAPI, tmp_path: Path) -> Iterator[Corpora]:
    made = Corpora(chroma, tmp_path)
    yield made
    made.drop()


def _canonical(pairs: Sequence[tuple[str, float]], *, descending: bool) -> list[tuple[str, float]]:
    """Pairs best first, scores that agree to float32 precision (bm25s's) taken as equal and put in chunk-id
    order (compare them with ``_same``)."""
    ordered = sorted(pairs, key=lambda pair: -pair[1] if descending else pair[1])
    groups: list[list[tuple[str, float]]] = []
    for chunk_id, score in ordered:
        if groups and math.isclose(score, groups[-1][0][1], rel_tol=1e-5, abs_tol=1e-9):
            groups[-1].append((chunk_id, groups[-1][0][1]))
        else:
            groups.append([(chunk_id, score)])
    return [pair for group in groups for pair in sorted(group)]


def _same(ours: list[tuple[str, float]], theirs: list[tuple[str, float]]) -> bool:
    """The same ids in the same order, with the same scores to float32 precision."""
    return [i for i, _ in ours] == [i for i, _ in theirs] and [s for _, s in ours] == pytest.approx(
        [s for _, s in theirs], rel=1e-5, abs=1e-9
    )


def _bm25(union: HybridCorpus, query: str) -> list[tuple[str, float]]:
    return _canonical(union.sparse.query(query, n=500, exclude=NOTHING), descending=True)


def _dense(union: HybridCorpus, query: str) -> list[tuple[str, float]]:
    vector = union.embedder.embed_query(query)
    return _canonical(union.dense.query_scored(vector, n=500, exclude=NOTHING), descending=False)


def _expected(union: HybridCorpus, query: str) -> list[Fused]:
    """The union's BM25 and dense rankings (equal scores in id order) fused by RRF, as ``HybridCorpus.fused``."""
    return rrf({"bm25": [i for i, _ in _bm25(union, query)], "dense": [i for i, _ in _dense(union, query)]})


def _fused(corpus: SearchableCorpus, query: str, *, reference: bool = False) -> list[tuple[str, float]]:
    fused = (
        _expected(corpus, query)
        if reference and isinstance(corpus, HybridCorpus)
        else corpus.fused(query, exclude=NOTHING)
    )
    return [(f.item_id, f.score) for f in fused]


texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=14).map(" ".join)
documents = st.lists(st.lists(texts, min_size=1, max_size=3), min_size=1, max_size=5)
queries = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(left=documents, right=documents, query=queries)
@example(  # scores equal but for float32 rounding in bm25s
    left=[["globex", "globex"]],
    right=[["globex", "globex"], ["globex", "globex", "globex globex globex globex globex"]],
    query="globex globex globex globex",
)
@example(  # cosine distances within 1e-5 of each other, not equal
    left=[["globex globex globex pricing pricing globex"]],
    right=[["pricing globex globex globex hiring europe globex"]],
    query="globex",
)
def test_bm25_and_dense_rank_two_corpora_as_one_corpus_holding_both(
    chroma: ClientAPI, tmp_path: Path, left: list[list[str]], right: list[list[str]], query: str
) -> None:
    made = Corpora(chroma, tmp_path / f"p{next(_names)}")
    try:
        a = made({f"a{i}": body for i, body in enumerate(left)})
        b = made({f"b{i}": body for i, body in enumerate(right)})
        union = made(
            {**{f"a{i}": body for i, body in enumerate(left)}, **{f"b{i}": body for i, body in enumerate(right)}}
        )
        together = CorpusSet([a, b])
        assert _same(
            _canonical(together.sparse_ranking(query, n=500, exclude=NOTHING), descending=True), _bm25(union, query)
        )
        vector = together.embedder.embed_query(query)
        dense = together.dense_ranking(vector, n=500, exclude=NOTHING)
        assert _same(_canonical(dense, descending=False), _dense(union, query))
        # Then one fusion of those two rankings, as HybridCorpus.fused fuses one corpus's two.
        sparse = [chunk_id for chunk_id, _ in together.sparse_ranking(query, n=50, exclude=NOTHING)]
        nearest = [chunk_id for chunk_id, _ in together.dense_ranking(vector, n=50, exclude=NOTHING)]
        assert together.fused(query, exclude=NOTHING) == rrf({"bm25": sparse, "dense": nearest})
    finally:
        made.drop()


MARKET = {
    "press": ["Halvorix announced Project Halyard, its serverless program, sponsored by Dana Okonkwo in June."],
    "memo": ["The Halyard program at Halvorix: Dana Okonkwo sponsors the serverless rollout for banks."],
    "bio": ["Dana Okonkwo previously led storage at Stellique Data before she joined Halvorix."],
    "menu": ["Soup and bread on Monday, pasta on Tuesday."],
}
DEBIAN = {
    "triggers": ["dpkg triggers: a package may announce interest in a trigger; the program runs when activated."],
    "policy": ["Debian policy: maintainer scripts must not prompt; the project documents every field."],
    "apt": ["apt fetches packages from mirrors listed in sources.list and verifies their signatures."],
}
QUESTION = "Who sponsors Project Halyard, the serverless program Halvorix announced?"


def test_an_irrelevant_corpus_best_hit_does_not_outrank_the_relevant_corpus_hits(corpora: Corpora) -> None:
    """The issue's case: RRF over per-corpus rankings put another corpus's best hit beside the press release."""
    together = CorpusSet([corpora(DEBIAN), corpora(MARKET)])
    ranked = [hit.chunk.doc_id for hit in together.search(QUESTION).chunks]
    assert set(ranked[:2]) == {"press", "memo"}  # both about Halyard; the Debian texts share a word or two


@pytest.mark.parametrize("budget", [60, 150, 10_000])
def test_search_fetches_and_packs_as_one_corpus_would(corpora: Corpora, budget: int) -> None:
    debian, market = corpora(DEBIAN), corpora(MARKET)
    union = corpora({**DEBIAN, **MARKET})
    together = CorpusSet([market, debian])
    for query in (QUESTION, "Debian package triggers", "Dana Okonkwo storage", "bread"):
        assert _fused(together, query) == _fused(union, query, reference=True)
        ours, theirs = (
            together.search(query, budget=budget),
            union.pack_fused(query, _expected(union, query), budget=budget),
        )
        assert [(h.chunk_id, h.score) for h in ours.chunks] == [(h.chunk_id, h.score) for h in theirs.chunks]
        assert (ours.tokens, ours.omitted) == (theirs.tokens, theirs.omitted)
        assert ours.tokens <= budget


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    excluded=st.sets(st.sampled_from([chunk_id_for(d, 0) for d in (*MARKET, *DEBIAN)])),
    query=st.sampled_from([QUESTION, "Debian package", "Dana", "program", "a"]),
)
def test_no_tool_returns_an_excluded_chunk(chroma: ClientAPI, tmp_path: Path, excluded: set[str], query: str) -> None:
    together = _module_set(chroma, tmp_path)
    frozen = frozenset(excluded)
    assert not {h.chunk_id for h in together.search(query, exclude=frozen).chunks} & frozen
    assert not {i for i, _ in together.sparse_ranking(query, n=50, exclude=frozen)} & frozen
    assert (
        not {i for i, _ in together.dense_ranking(together.embedder.embed_query(query), n=50, exclude=frozen)} & frozen
    )
    assert not {h.chunk_id for h in together.grep("a", exclude=frozen).chunks} & frozen
    for doc_id in (*MARKET, *DEBIAN):
        assert not {h.chunk_id for h in together.read_document(doc_id, budget=9999, exclude=frozen).chunks} & frozen


_MODULE: dict[str, CorpusSet] = {}


def _module_set(chroma: ClientAPI, tmp_path: Path) -> CorpusSet:
    """One set for every example of the exclusion property (filling corpora per example would be slow)."""
    if "set" not in _MODULE:
        config = SearchConfig(grep_limit=20)
        folder = tmp_path / "excluded"
        _MODULE["set"] = CorpusSet([_fill(make_corpus(chroma, folder, config), docs) for docs in (MARKET, DEBIAN)])
    return _MODULE["set"]


def test_grep_merges_the_first_matches_in_document_order_within_the_limit(corpora: Corpora) -> None:
    config = SearchConfig(grep_limit=3)
    debian, market = corpora(DEBIAN, config), corpora(MARKET, config)
    together = CorpusSet([market, debian])
    assert [h.chunk_id for h in together.grep("p").chunks] == ["apt#0", "bio#0", "memo#0"]
    assert [h.chunk_id for h in together.grep("p", exclude=frozenset({"bio#0"})).chunks] == [
        "apt#0",
        "memo#0",
        "menu#0",
    ]
    assert [h.chunk_id for h in together.grep("dpkg").chunks] == ["triggers#0"]
    with pytest.raises(GrepError, match="invalid pattern"):
        together.grep("(unclosed")


def test_read_document_reads_the_corpus_that_has_it(corpora: Corpora) -> None:
    debian, market = corpora(DEBIAN), corpora(MARKET)
    together = CorpusSet([market, debian])
    assert [h.chunk_id for h in together.read_document("triggers", budget=999).chunks] == ["triggers#0"]
    assert [h.chunk_id for h in together.read_document("press", budget=999).chunks] == ["press#0"]
    assert "no unseen chunks" in together.read_document("nope", budget=999).note
    port = CorpusPort(together)
    assert [h.doc_id for h in port.read_document("apt", query="", exclude=NOTHING, budget=999).hits] == ["apt"]
    with pytest.raises(CorpusToolError, match="no document 'nope'"):
        port.read_document("nope", query="", exclude=NOTHING, budget=999)


def test_a_document_in_two_corpora_is_ranked_once(corpora: Corpora) -> None:
    shared = {"press": MARKET["press"]}
    together = CorpusSet([corpora(MARKET), corpora({**DEBIAN, **shared})])
    ids = [h.chunk_id for h in together.search("Halyard", budget=10_000).chunks]
    assert ids.count("press#0") == 1
    assert len({i for i, _ in together.sparse_ranking("Halyard", n=50, exclude=NOTHING)}) == len(
        together.sparse_ranking("Halyard", n=50, exclude=NOTHING)
    )


def test_a_bm25_version_without_chunk_lengths_still_searches_with_shared_idf(corpora: Corpora) -> None:
    """Indexes written before lengths were kept: IDF is shared, lengths normalised per corpus, until a rebuild."""
    same_length = {f"d{i}": [" ".join(WORDS[i : i + 4])] for i in range(8)}
    left, right = dict(list(same_length.items())[:5]), dict(list(same_length.items())[5:])
    a, b, union = corpora(left), corpora(right), corpora(same_length)
    for index in (a, b):
        version = (index.sparse.directory / "CURRENT").read_text().strip()
        (index.sparse.directory / version / "lengths.npy").unlink()
    reopened = [_reopen(index) for index in (a, b)]
    assert all(s is not None and s.lengths is None for s in (c.sparse.snapshot() for c in reopened))
    together = CorpusSet(reopened)
    # Every chunk has the same length, so per-corpus length normalisation is the union's: the same ranking.
    for query in ("vector search", "june nimbus hiring", "oslo"):
        got = _canonical(together.sparse_ranking(query, n=50, exclude=NOTHING), descending=True)
        assert _same(got, _bm25(union, query))


def _reopen(index: HybridCorpus) -> HybridCorpus:
    return HybridCorpus(
        dense=index.dense,
        sparse=SparseIndex(index.sparse.directory),
        embedder=index.embedder,
        reranker=index.reranker,
        counter=index.counter,
        config=index.config,
    )


def test_it_refuses_no_corpora_and_corpora_of_different_embedders(chroma: ClientAPI, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one"):
        CorpusSet([])
    wide = HybridCorpus(
        dense=DenseIndex(chroma, f"wide-{next(_names)}"),
        sparse=SparseIndex(tmp_path / "wide"),
        embedder=HashingEmbedder(dimension=384),
        reranker=NoReranker(),
        counter=EstimatingCounter(),
    )
    narrow = make_corpus(chroma, tmp_path)
    try:
        with pytest.raises(ValueError, match="different models"):
            CorpusSet([wide, narrow])
    finally:
        for corpus in (wide, narrow):
            corpus.dense.drop()
            corpus.close()
        shutil.rmtree(tmp_path / "wide", ignore_errors=True)


class _Reverse:
    """A reranker that prefers shorter texts: visible in the order."""

    name = "short-first"

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        return [-float(len(text)) for text in texts]


def test_the_reranker_reorders_the_set_as_it_reorders_one_corpus(corpora: Corpora) -> None:
    debian, market, union = corpora(DEBIAN), corpora(MARKET), corpora({**DEBIAN, **MARKET})
    for index in (debian, market, union):
        index.reranker = _Reverse()
    ours = [h.chunk_id for h in CorpusSet([market, debian]).search("program Halvorix package").chunks]
    assert ours == [h.chunk_id for h in union.search("program Halvorix package").chunks]
    assert [len(h.chunk.text) for h in CorpusSet([market, debian]).search("program").chunks] == sorted(
        len(h.chunk.text) for h in CorpusSet([market, debian]).search("program").chunks
    )
