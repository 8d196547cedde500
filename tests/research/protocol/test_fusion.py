from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from research.protocol.fusion import rrf

ids = st.lists(st.sampled_from([f"c{i}" for i in range(30)]), max_size=25, unique=True)


def test_it_scores_by_the_documented_formula() -> None:
    fused = {f.item_id: f for f in rrf({"bm25": ["a", "b"], "dense": ["b", "c"]}, k=60)}
    assert fused["b"].score == 1 / 62 + 1 / 61
    assert fused["a"].score == 1 / 61
    assert fused["c"].score == 1 / 62
    assert fused["b"].ranks == {"bm25": 2, "dense": 1}
    assert [f.item_id for f in rrf({"bm25": ["a", "b"], "dense": ["b", "c"]})] == ["b", "a", "c"]


def test_a_repeated_id_counts_at_its_first_rank() -> None:
    assert rrf({"x": ["a", "b", "a"]})[0].ranks == {"x": 1}


@given(st.lists(ids, min_size=1, max_size=5), st.randoms())
def test_it_is_invariant_to_the_order_of_the_input_lists(rankings: list[list[str]], rnd) -> None:  # type: ignore[no-untyped-def]
    named = {f"r{i}": ranking for i, ranking in enumerate(rankings)}
    shuffled_names = list(named)
    rnd.shuffle(shuffled_names)
    shuffled = {name: named[name] for name in shuffled_names}
    assert rrf(named) == rrf(shuffled)


@given(ids, st.integers(min_value=1, max_value=6))
def test_equal_lists_fuse_to_the_same_order(ranking: list[str], copies: int) -> None:
    fused = rrf({f"r{i}": ranking for i in range(copies)})
    assert [f.item_id for f in fused] == ranking


@given(st.lists(ids, min_size=1, max_size=5))
def test_it_keeps_the_union_of_ids_sorted_by_score(rankings: list[list[str]]) -> None:
    fused = rrf({f"r{i}": ranking for i, ranking in enumerate(rankings)})
    assert {f.item_id for f in fused} == set().union(*rankings)
    assert all(a.score >= b.score for a, b in itertools.pairwise(fused))


def test_a_ranking_weighed_less_counts_less() -> None:
    rankings = {"bm25": ["page"], "dense": ["grid"]}  # a tie, broken by the id
    assert [f.item_id for f in rrf(rankings)][:2] == ["grid", "page"]
    assert [f.item_id for f in rrf(rankings, weights={"dense": 0.5})][:2] == ["page", "grid"]


@given(st.lists(ids, min_size=1, max_size=4))
def test_weights_of_one_change_nothing(rankings: list[list[str]]) -> None:
    named = {f"r{i}": ranking for i, ranking in enumerate(rankings)}
    assert rrf(named, weights=dict.fromkeys(named, 1.0)) == rrf(named)
