"""`manage.py bench_french`: fact passages found per retriever, French against English, dev corpora only."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from research.bench.french import FactQuery, Tally, query_of, ratios
from research.evaluation.benchmark import benchmark_corpora


def test_it_measures_one_french_and_one_english_corpus_and_writes_json(tmp_path: Path) -> None:
    out, path = StringIO(), tmp_path / "deep" / "french.json"
    call_command(
        "bench_french",
        "--embedder",
        "hashing",
        "--corpus",
        "sante-cabinets-fr",
        "--corpus",
        "payments-nl",
        "--json",
        str(path),
        stdout=out,
    )
    result = json.loads(path.read_text(encoding="utf-8"))
    assert result["split"] == "dev"
    assert {(c["corpus"], c["language"], c["bm25_language"]) for c in result["corpora"]} == {
        ("sante-cabinets-fr", "fr", "fr"),
        ("payments-nl", "en", "en"),
    }
    french, english = result["by_language"]["fr"], result["by_language"]["en"]
    assert set(english) == {"bm25", "dense", "hybrid", "bm25_english"}
    assert set(french) == set(english) | {
        "bm25_unaccented",
        "dense_unaccented",
        "hybrid_unaccented",
        "bm25_english_unaccented",
    }
    assert french["bm25"]["facts"] == 111
    assert 0 < french["bm25"]["passage_facts"] <= 111
    assert 0.5 < french["bm25"]["passage_hit@10"] <= 1
    for measure in ("source_hit@1", "passage_hit@3"):
        assert french["bm25"][measure] is not None
    assert english["bm25"] == english["bm25_english"]  # an English corpus: the same tokenizer
    assert result["french_over_english"]["passage_hit@10"]["bm25"] > 0
    assert "French / English" in out.getvalue()
    assert str(path) in out.getvalue()


def test_a_test_split_corpus_is_never_measured(tmp_path: Path) -> None:
    held_out = next(c.name for c in benchmark_corpora("test"))
    with pytest.raises(CommandError, match="no dev corpus"):
        call_command("bench_french", "--embedder", "hashing", "--corpus", held_out, "--json", str(tmp_path / "x.json"))
    assert not (tmp_path / "x.json").exists()


def test_the_query_is_the_fact_without_its_trailing_bracket() -> None:
    assert query_of("Quellbrae has 80 staff (careers page).") == "Quellbrae has 80 staff"
    assert query_of("Le tarif passe à 59 euros (avril 2026)") == "Le tarif passe à 59 euros"
    assert query_of("Plain fact.") == "Plain fact."
    assert query_of("(only a bracket)") == "(only a bracket)"


def test_ratios_name_french_over_english_and_dense_over_bm25() -> None:
    def record(**hits: float) -> dict[str, dict[str, float]]:
        return {name: {"passage_hit@1": value} for name, value in hits.items()}

    got = ratios(
        {"fr": record(bm25=0.8, dense=0.4, hybrid=0.6), "en": record(bm25=0.8, dense=0.5, hybrid=0.6)}, "passage_hit@1"
    )
    assert got == {"bm25": 1.0, "dense": 0.8, "hybrid": 1.0, "dense_over_bm25": 0.8}
    assert ratios({"en": record(bm25=0.8, dense=0.5, hybrid=0.6)}, "passage_hit@1")["dense"] is None


def test_a_tally_counts_source_and_passage_hits() -> None:
    fact = FactQuery("q", "documents/a.html", "quote")
    tally = Tally()
    tally.add(
        ["documents/b.html@0#0", "documents/a.html@0#1", "documents/a.html@0#0"],
        fact,
        frozenset({"documents/a.html@0#0"}),
    )
    tally.add(["documents/b.html@0#0"], fact, frozenset())  # a quote across two chunks: no passage to find
    record = tally.record()
    assert (record["facts"], record["passage_facts"]) == (2, 1)
    assert (record["source_hit@1"], record["source_hit@3"]) == (0.0, 0.5)
    assert (record["passage_hit@1"], record["passage_hit@3"]) == (0.0, 1.0)
