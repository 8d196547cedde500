from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research.protocol import wire
from research.retrieval.corpus import HybridCorpus, SearchConfig
from research.retrieval.dense import GrepError
from research.retrieval.packing import pack, to_wire
from research.retrieval.sparse import with_title
from research.retrieval.types import Chunk, chunk_id_for
from tests.research.retrieval.conftest import make_corpus

DOCS = {
    "globex": ["Globex raised the Team plan to 49 dollars per seat in June 2026.", "Globex hired Dana Reyes as VP."],
    "initech": ["Initech sells vector search to banks.", "Initech pricing is usage based since March 2026."],
    "hooli": ["Hooli launched Project Nimbus, a managed retrieval service.", "Nimbus targets retailers in Europe."],
}


def _chunks(doc_id: str, texts: list[str]) -> list[Chunk]:
    return [Chunk(chunk_id_for(doc_id, i), doc_id, i, text, title=doc_id.title()) for i, text in enumerate(texts)]


@pytest.fixture
def filled(corpus: HybridCorpus) -> HybridCorpus:
    for doc_id, texts in DOCS.items():
        corpus.add(_chunks(doc_id, texts))
    corpus.refresh_sparse()
    return corpus


def test_search_fuses_bm25_and_dense_hits(filled: HybridCorpus) -> None:
    result = filled.search("Globex Team plan price June")
    assert result.chunks[0].chunk_id == "globex#0"
    assert set(result.chunks[0].ranks) == {"bm25", "dense"}
    assert result.tokens <= filled.config.search_budget


def test_indexed_chunks_carry_their_body_token_counts_and_search_counts_from_them(filled: HybridCorpus) -> None:
    hits = filled.search("Globex Team plan price June").chunks
    assert hits
    assert all(h.chunk.body_counter == filled.counter.name for h in hits)
    assert all(h.chunk.body_tokens == filled.counter.count(wire.body(h.chunk.text)) for h in hits)
    assert all(h.chunk.frame_tokens for h in hits)
    result = filled.search("Globex Team plan price June")
    rendered = [wire.render(to_wire(item)) for item in result.chunks]
    assert result.tokens == sum(filled.counter.count_many(rendered))


def test_search_never_returns_excluded_chunks(filled: HybridCorpus) -> None:
    result = filled.search("Globex Team plan price June", exclude=frozenset({"globex#0"}))
    assert "globex#0" not in {c.chunk_id for c in result.chunks}
    assert result.chunks


def test_search_respects_a_tight_budget(filled: HybridCorpus) -> None:
    result = filled.search("pricing", budget=40)
    assert result.tokens <= 40
    assert result.omitted > 0


def test_grep_finds_regex_matches_in_document_order_with_exclusions(filled: HybridCorpus) -> None:
    assert [c.chunk_id for c in filled.grep(r"20\d\d").chunks] == ["globex#0", "initech#1"]
    assert [c.chunk_id for c in filled.grep(r"20\d\d", exclude=frozenset({"globex#0"})).chunks] == ["initech#1"]


def test_grep_caps_at_the_limit(chroma, tmp_path) -> None:  # type: ignore[no-untyped-def]
    corpus = make_corpus(chroma, tmp_path, SearchConfig(grep_limit=2))
    corpus.add(_chunks("many", [f"match {i}" for i in range(6)]))
    assert len(corpus.grep("match").chunks) == 2


def test_grep_reports_an_invalid_pattern(filled: HybridCorpus) -> None:
    with pytest.raises(GrepError, match="invalid pattern"):
        filled.grep("(unclosed")


def test_read_document_returns_its_chunks_in_order_and_truncates_with_a_marker(filled: HybridCorpus) -> None:
    whole = filled.read_document("hooli", budget=10_000)
    assert [c.chunk_id for c in whole.chunks] == ["hooli#0", "hooli#1"]
    assert not whole.truncated
    cut = filled.read_document("hooli", budget=45)
    assert cut.truncated
    assert cut.tokens <= 45
    assert cut.chunks[-1].chunk.text.endswith("[... truncated]")


def test_read_document_skips_seen_chunks_and_explains_an_empty_read(filled: HybridCorpus) -> None:
    assert [c.chunk_id for c in filled.read_document("hooli", budget=999, exclude=frozenset({"hooli#0"})).chunks] == [
        "hooli#1"
    ]
    assert "no unseen chunks" in filled.read_document("nope", budget=999).note


def test_deleting_a_document_removes_it_from_both_indexes(filled: HybridCorpus) -> None:
    filled.delete_documents(["globex"])
    filled.refresh_sparse()
    assert filled.sparse.query("Globex", n=10, exclude=frozenset()) == []
    assert all(c.chunk.doc_id != "globex" for c in filled.search("Globex Team plan").chunks)
    assert filled.dense.count() == 4


def test_re_adding_the_same_chunks_does_not_duplicate(filled: HybridCorpus) -> None:
    filled.add(_chunks("globex", DOCS["globex"]))
    assert filled.dense.count() == 6
    assert filled.refresh_sparse() == 6


@settings(max_examples=30, deadline=None)
@given(
    excluded=st.sets(st.sampled_from([f"{d}#{i}" for d in DOCS for i in range(2)])),
    query=st.sampled_from(["Globex price", "Initech banks", "Nimbus retailers Europe", "pricing 2026", "VP hire"]),
)
def test_excluded_chunks_never_come_back_from_any_tool(
    filled_module: HybridCorpus, excluded: set[str], query: str
) -> None:
    frozen = frozenset(excluded)
    assert not {c.chunk_id for c in filled_module.search(query, exclude=frozen).chunks} & frozen
    assert not {c.chunk_id for c in filled_module.grep("[0-9]|e", exclude=frozen).chunks} & frozen
    for doc_id in DOCS:
        assert (
            not {c.chunk_id for c in filled_module.read_document(doc_id, budget=9999, exclude=frozen).chunks} & frozen
        )
    assert not {i for i, _ in filled_module.sparse.query(query, n=50, exclude=frozen)} & frozen


@pytest.fixture(scope="module")
def filled_module(chroma, tmp_path_factory) -> HybridCorpus:  # type: ignore[no-untyped-def]
    corpus = make_corpus(chroma, tmp_path_factory.mktemp("excl"), SearchConfig(grep_limit=10))
    for doc_id, texts in DOCS.items():
        corpus.add(_chunks(doc_id, texts))
    corpus.refresh_sparse()
    return corpus


@pytest.mark.parametrize("budget", [60, 120, 400, 10_000])
def test_search_fetches_lazily_but_packs_as_packing_all_candidates_would(filled: HybridCorpus, budget: int) -> None:
    query = "Globex Nimbus pricing plan"
    everything = pack(
        filled.candidates(query, exclude=frozenset()),
        budget=budget,
        counter=filled.counter,
        limit=filled.config.max_results,
    ).result
    searched = filled.search(query, budget=budget)
    assert [c.chunk_id for c in searched.chunks] == [c.chunk_id for c in everything.chunks]
    assert searched.tokens == everything.tokens
    assert searched.omitted == everything.omitted


def test_one_files_many_short_documents_do_not_crowd_out_every_other_file(corpus: HybridCorpus) -> None:
    def chunk(doc_id: str, text: str, source: str) -> Chunk:
        return Chunk(chunk_id_for(doc_id, 0), doc_id, 0, text, doc_id, {"source": source})

    rows = [chunk(f"row{n}", f"Account: Bank {n}; Current tool: Globex", "crm.csv") for n in range(8)]
    pages = [
        chunk(f"page{n}", f"Globex builds compliance software for banks, page {n}, with many more words.", f"p{n}.html")
        for n in range(8)
    ]
    corpus.add([*rows, *pages])
    corpus.refresh_sparse()
    found = corpus.search("Globex").chunks
    assert len(found) == corpus.config.max_results
    assert sum(1 for item in found if item.chunk.metadata["source"] == "crm.csv") == corpus.config.per_source == 3
    # when the other files have nothing more to give, the file's other documents fill the page
    seen = frozenset(item.chunk_id for item in found if item.chunk.metadata["source"] != "crm.csv")
    rest = corpus.search("Globex", exclude=seen).chunks
    assert {item.chunk.metadata["source"] for item in rest} >= {"crm.csv"}
    assert sum(1 for item in rest if item.chunk.metadata["source"] == "crm.csv") == 8


def test_a_corpus_in_another_language_than_the_embedders_weighs_the_dense_ranking_less() -> None:
    config = SearchConfig()
    assert config.weights("en") == {}
    assert config.weights("fr") == {"dense": config.dense_weight_other_language} == {"dense": 0.5}


def test_bm25_reads_a_chunks_title_and_publisher_with_its_text(corpus: HybridCorpus) -> None:
    """A pricing table that never names the company is found by the company's name: its page's title or its
    publisher names it (the chunk's text is unchanged)."""
    table = "Standard\n$70/month minimum usage\nEnterprise\n$500/month minimum usage"
    corpus.add(
        [
            Chunk("p#0", "p", 0, table, title="Pay for what you store", metadata={"publisher": "Halvorix, Inc"}),
            Chunk("q#0", "q", 0, table.replace("70", "75"), title="Pricing | Quellbrae"),
            Chunk("r#0", "r", 0, "Rivals charge $80/month minimum usage for a standard plan.", title="Rivals"),
        ]
    )
    corpus.refresh_sparse()
    assert [hit for hit, _ in corpus.sparse.query("Halvorix", n=5, exclude=frozenset())] == ["p#0"]
    assert [hit for hit, _ in corpus.sparse.query("Quellbrae", n=5, exclude=frozenset())] == ["q#0"]
    assert [chunk.text for chunk in corpus.document_chunks("p")] == [table]


def test_with_title_puts_the_title_first_once() -> None:
    assert with_title("Body.", title="Pricing", publisher="Acme") == "Pricing\nAcme\nBody."
    assert with_title("Pricing\nBody.", title="Pricing") == "Pricing\nBody."  # a text that opens with it
    assert with_title("Body.") == "Body."
