"""The report benchmark holds what it promises: companies in several industries and languages, a held-out test
split, documents in many formats and voices, and gold files that agree with their documents as parsed."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from research.evaluation.benchmark import REPORT_CORPORA_DIR, benchmark_corpora, gold_problems
from research.writing.company import COMPETITOR_FACETS

CORPORA = sorted(path.parent for path in REPORT_CORPORA_DIR.glob("*/gold.json"))


def test_the_benchmark_has_breadth_and_a_test_split() -> None:
    golds = [json.loads((folder / "gold.json").read_text(encoding="utf-8")) for folder in CORPORA]
    assert len(golds) + 1 >= 8  # with the demo corpus (a dev corpus of its own)
    assert len({gold["industry"] for gold in golds}) >= 4
    splits = Counter(gold["split"] for gold in golds)
    assert splits["test"] >= 4
    assert splits["dev"] >= 1
    french = [gold for gold in golds if gold["language"] == "fr"]
    assert len(french) >= 2
    assert any(gold["split"] == "test" for gold in french)


@pytest.mark.parametrize("folder", CORPORA, ids=[folder.name for folder in CORPORA])
def test_each_corpus_has_many_formats_and_a_gold_that_holds(folder: Path) -> None:
    documents = [path for path in (folder / "documents").iterdir() if path.is_file()]
    assert 8 <= len(documents) <= 15
    assert len({path.suffix for path in documents}) >= 6
    assert (folder / "README.md").is_file()
    gold = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
    facets = {facet.key for facet in COMPETITOR_FACETS}
    key = [fact for fact in gold["facts"] if fact.get("key")]
    assert 10 <= len(key) <= 15
    assert len({fact["facet"] for fact in key} | {f for fact in key for f in fact.get("also", ())}) >= 7
    assert all({fact["facet"], *fact.get("also", ())} <= facets for fact in gold["facts"])
    assert gold["subject"]["lookalikes"], "every corpus has a look-alike company"
    assert gold_problems(folder) == []


def test_corpora_are_chosen_by_split_and_name() -> None:
    test = benchmark_corpora("test")
    assert test
    assert all(corpus.split == "test" for corpus in test)
    assert [c.name for c in benchmark_corpora("all", [CORPORA[0].name])] == [CORPORA[0].name]
    with pytest.raises(ValueError, match="no benchmark corpus named nowhere"):
        benchmark_corpora("all", ["nowhere"])
