"""Several corpora as one: results fused by RRF within the budget, exclusions kept, documents found in any."""

from __future__ import annotations

import pytest

from research.harness.ports import CorpusHit, CorpusToolError
from research.harness.run import estimate_tokens
from research.protocol import wire
from research.retrieval.memory import MemoryCorpus
from research.runs.multi_corpus import MultiCorpus


def _pair() -> tuple[MemoryCorpus, MemoryCorpus, MultiCorpus]:
    left = MemoryCorpus({"globex": ["Globex prices rose in June.", "Globex hired engineers."]})
    right = MemoryCorpus({"initech": ["Initech prices for banks.", "Initech prices and plans."]})
    return left, right, MultiCorpus([left, right], count=estimate_tokens)


def test_search_fuses_the_corpora_answers() -> None:
    _, _, both = _pair()
    result = both.search("prices", exclude=frozenset(), budget=10_000)
    assert {hit.doc_id for hit in result.hits} == {"globex", "initech"}
    assert result.hits[0].doc_id == "globex"  # first in the first corpus: rank 1 in a ranking, ties by rank


def _cost(hit: CorpusHit) -> int:
    return estimate_tokens(wire.render(wire.WireChunk(hit.chunk_id, hit.doc_id, hit.title, hit.score, hit.text)))


def test_search_keeps_the_longest_answers_length_and_stays_inside_the_budget() -> None:
    _, _, both = _pair()
    roomy = both.search("prices", exclude=frozenset(), budget=10_000)
    assert len(roomy.hits) == 2  # three fused candidates, but no corpus answered with more than two
    assert roomy.omitted == 1
    tight = both.search("prices", exclude=frozenset(), budget=_cost(roomy.hits[0]) + 1)
    assert tight.hits == roomy.hits[:1]
    assert tight.omitted == 2
    assert sum(_cost(hit) for hit in tight.hits) <= _cost(roomy.hits[0]) + 1


def test_exclusions_reach_every_corpus() -> None:
    left, right, both = _pair()
    excluded = frozenset({"globex#0", "initech#0"})
    result = both.search("prices", exclude=excluded, budget=10_000)
    assert not {hit.chunk_id for hit in result.hits} & excluded
    assert left.calls[-1][2] == excluded
    assert right.calls[-1][2] == excluded


def test_read_document_finds_it_in_any_corpus_and_names_an_unknown_one() -> None:
    _, _, both = _pair()
    assert {hit.doc_id for hit in both.read_document("initech", query="", exclude=frozenset(), budget=10_000).hits} == {
        "initech"
    }
    with pytest.raises(CorpusToolError, match="nope"):
        both.read_document("nope", query="", exclude=frozenset(), budget=10_000)


def test_grep_returns_matches_of_both_and_an_invalid_pattern_is_the_models_error() -> None:
    _, _, both = _pair()
    assert {hit.doc_id for hit in both.grep("prices", exclude=frozenset(), budget=10_000).hits} == {
        "globex",
        "initech",
    }
    with pytest.raises(CorpusToolError):
        both.grep("(", exclude=frozenset(), budget=10_000)


def test_it_needs_two_corpora() -> None:
    with pytest.raises(ValueError, match="two"):
        MultiCorpus([MemoryCorpus({})], count=estimate_tokens)
