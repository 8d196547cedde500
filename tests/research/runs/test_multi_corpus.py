"""A run's corpora as its tools' corpus: one as it is, several ranked as one corpus holding them all would.

Real ingestion (hashing embedder, Chroma, bm25s) of two corpora of one workspace, as a run over both
(the run form's default: every corpus ticked) searches them through ``agent.corpus_port``.
"""

from __future__ import annotations

import pytest

from research.harness.ports import CorpusToolError
from research.models import Corpus, Document, Membership
from research.platform.composition import corpus_index
from research.retrieval.corpus_set import CorpusSet
from research.runs import agent
from research.runs.multi_corpus import corpora_searched
from tests.research.runs.conftest import ingest

MARKET = {
    "press.txt": b"Halvorix announced Project Halyard, its serverless program, sponsored by Dana Okonkwo.",
    "memo.txt": b"Project Halyard status at Halvorix: Dana Okonkwo sponsors the serverless program for banks.",
    "bio.txt": b"Dana Okonkwo previously led storage at Stellique Data.",
    "menu.txt": b"Soup and bread on Monday.",
}
# An unrelated corpus whose best hits share a word or two with the question (as Debian's `triggers` text did).
DEBIAN = {
    "triggers.txt": b"dpkg triggers: a package announced interest in a trigger; the program runs when it is activated.",
    "policy.txt": b"Debian policy: the project documents every control field; maintainer scripts must not prompt.",
    "apt.txt": b"apt fetches packages from the mirrors listed in sources.list and verifies their signatures.",
}
QUESTION = "Who sponsors Project Halyard, the serverless program Halvorix announced?"
NOTHING: frozenset[str] = frozenset()


def _doc_ids(corpus: Corpus) -> dict[str, str]:
    """File name (without extension) -> doc id."""
    return {d.title: d.doc_id for d in Document.objects.filter(corpus=corpus)}


@pytest.fixture
def both(owner: Membership) -> tuple[Corpus, Corpus]:
    return ingest(owner, "Debian", DEBIAN), ingest(owner, "Market", MARKET)


def test_another_corpus_best_hit_does_not_outrank_the_relevant_corpus_hits(both: tuple[Corpus, Corpus]) -> None:
    debian, market = both
    port = agent.corpus_port([debian, market])  # ordered by pk, as a run's corpora are
    hits = port.search(QUESTION, exclude=NOTHING, budget=10_000).hits
    relevant = {_doc_ids(market)["press"], _doc_ids(market)["memo"]}
    assert {hit.doc_id for hit in hits[:2]} == relevant
    unrelated = set(_doc_ids(debian).values())
    last_relevant = max(i for i, hit in enumerate(hits) if hit.doc_id in relevant)
    assert not [hit.doc_id for hit in hits[: last_relevant + 1] if hit.doc_id in unrelated]


def test_one_corpus_is_searched_as_it_is_and_several_as_one_set(both: tuple[Corpus, Corpus]) -> None:
    debian, market = both
    assert corpora_searched([market]) is corpus_index(market)
    together = corpora_searched([debian, market])
    assert isinstance(together, CorpusSet)
    assert together.members == (corpus_index(debian), corpus_index(market))
    with pytest.raises(ValueError, match="at least one corpus"):
        corpora_searched([])


def test_grep_and_read_reach_every_corpus_and_exclusions_hold(both: tuple[Corpus, Corpus]) -> None:
    debian, market = both
    port = agent.corpus_port([debian, market])
    press, triggers = _doc_ids(market)["press"], _doc_ids(debian)["triggers"]
    assert {hit.doc_id for hit in port.grep("Halyard|dpkg", exclude=NOTHING, budget=10_000).hits} == {
        press,
        _doc_ids(market)["memo"],
        triggers,
    }
    assert [hit.doc_id for hit in port.read_document(triggers, query="", exclude=NOTHING, budget=999).hits] == [
        triggers
    ]
    assert [hit.doc_id for hit in port.read_document(press, query="", exclude=NOTHING, budget=999).hits] == [press]
    with pytest.raises(CorpusToolError, match="no document"):
        port.read_document("nope", query="", exclude=NOTHING, budget=999)
    seen = frozenset({f"{press}#0", f"{triggers}#0"})
    for result in (
        port.search(QUESTION, exclude=seen, budget=10_000),
        port.grep("Halyard|dpkg", exclude=seen, budget=10_000),
        port.read_document(press, query="", exclude=seen, budget=999),
    ):
        assert not {hit.chunk_id for hit in result.hits} & seen
