"""The in-memory corpus of tests and benchmarks: both rankings, exclusions, budgets, recorded calls."""

from __future__ import annotations

import pytest

from research.harness.ports import CorpusToolError
from research.harness.run import estimate_tokens
from research.retrieval.memory import MemoryCorpus

DOCS = {
    "globex": ["Globex raised the Team plan price in June.", "Globex hired Dana Reyes."],
    "initech": ["Initech sells vector search to banks.", "Initech pricing is usage based."],
    "hooli": ["Hooli launched Project Nimbus."],
}
NONE: frozenset[str] = frozenset()


def test_overlap_ranks_by_shared_words_and_leaves_out_chunks_sharing_none() -> None:
    corpus = MemoryCorpus(DOCS, per_call=2)
    result = corpus.search("Globex price in June", exclude=NONE, budget=100)
    assert [(hit.chunk_id, hit.score) for hit in result.hits] == [("globex#0", 4.0), ("globex#1", 1.0)]
    assert result.omitted == 0
    assert result.hits[0].title == "Globex"
    assert corpus.search("Initech Globex", exclude=frozenset({"globex#0"}), budget=100).omitted == 1  # 3 found
    assert corpus.search("weather", exclude=NONE, budget=100).hits == ()
    assert [call[:2] for call in corpus.calls] == [
        ("search", "Globex price in June"),
        ("search", "Initech Globex"),
        ("search", "weather"),
    ]


def test_rotation_finds_every_chunk_from_a_place_that_depends_on_the_query() -> None:
    corpus = MemoryCorpus(DOCS, ranking="rotation", per_call=5)
    first = corpus.search("a", exclude=NONE, budget=100)
    other = corpus.search("b", exclude=NONE, budget=100)
    assert len(first.hits) == 5
    assert first.omitted == 0
    assert first.hits[0] != other.hits[0]
    ids = [hit.chunk_id for hit in corpus.hits]
    start = ids.index(first.hits[0].chunk_id)
    assert [hit.chunk_id for hit in first.hits] == (ids[start:] + ids[:start])[:5]
    assert corpus.search("a", exclude=frozenset(ids[1:]), budget=100).hits == (corpus.hits[0],)


def test_with_a_counter_it_packs_within_the_budget_and_hits_carry_their_counts() -> None:
    corpus = MemoryCorpus(DOCS, ranking="rotation", per_call=10, count=estimate_tokens, counter_name="estimate")
    cost = corpus.costs["globex#0"]
    assert cost > 0
    assert all(hit.tokens == corpus.costs[hit.chunk_id] and hit.counter == "estimate" for hit in corpus.hits)
    packed = corpus.search("", exclude=NONE, budget=2 * cost + 5)
    assert sum(hit.tokens or 0 for hit in packed.hits) <= 2 * cost + 5
    assert len(packed.hits) == 2
    assert packed.omitted == len(corpus.hits) - 2
    overlap = MemoryCorpus(DOCS, count=estimate_tokens, counter_name="estimate")
    scored = overlap.search("Globex price June", exclude=NONE, budget=1000).hits[0]
    assert scored.score == 3.0
    assert scored.tokens == estimate_tokens(
        f'<chunk id="globex#0" doc="globex" title="Globex" score="3.0000">\n{DOCS["globex"][0]}\n</chunk>'
    )


def test_without_a_counter_the_budget_is_not_its_business() -> None:
    corpus = MemoryCorpus({"big": ["Globex " + "word " * 700]})
    assert len(corpus.search("Globex", exclude=NONE, budget=10).hits) == 1


def test_grep_and_read_document_honour_exclusions_and_refuse_mistakes() -> None:
    corpus = MemoryCorpus(DOCS)
    assert [hit.chunk_id for hit in corpus.grep(r"Initech \w+", exclude=frozenset({"initech#0"}), budget=99).hits] == [
        "initech#1"
    ]
    with pytest.raises(CorpusToolError, match="invalid pattern"):
        corpus.grep("(", exclude=NONE, budget=99)
    read = corpus.read_document("globex", query="", exclude=frozenset({"globex#1"}), budget=99)
    assert [hit.chunk_id for hit in read.hits] == ["globex#0"]
    with pytest.raises(CorpusToolError, match="no document 'acme'"):
        corpus.read_document("acme", query="", exclude=NONE, budget=99)
    assert [call[0] for call in corpus.calls] == ["grep", "grep", "read", "read"]


def test_titles_can_be_given_and_recording_switched_off() -> None:
    corpus = MemoryCorpus({"d0": ["text"]}, titles={"d0": "Document 0"}, record=False)
    assert corpus.read_document("d0", query="", exclude=NONE, budget=99).hits[0].title == "Document 0"
    assert corpus.calls == []
