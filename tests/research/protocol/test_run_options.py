"""``RunOptions``: a run's stored options, read leniently and written in the stored shape."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from research.protocol.run_options import RunOptions


def test_stored_options_read_as_typed_values() -> None:
    stored = {
        "writer": "openai",
        "web": True,
        "aspects": ["Hiring plans"],
        "criteria": [{"description": "between 50 and 500 employees", "weight": 1.0}],
        "as_of": "2026-12-01",
    }
    options = RunOptions.of(stored)
    assert options == RunOptions(
        writer="openai",
        web=True,
        aspects=("Hiring plans",),
        criteria=({"description": "between 50 and 500 employees", "weight": 1.0},),
        as_of="2026-12-01",
    )
    assert options.as_json() == stored


def test_a_value_of_the_wrong_type_reads_as_its_default_and_nothing_fails() -> None:
    assert RunOptions.of(None) == RunOptions()
    assert RunOptions.of(["not", "an", "object"]) == RunOptions()
    odd = RunOptions.of({"writer": 3, "web": "yes", "aspects": "Hiring", "criteria": [1, {"description": "x"}]})
    assert odd == RunOptions(criteria=({"description": "x"},))


def test_the_stored_shape_holds_a_key_only_when_it_says_something() -> None:
    assert RunOptions(writer="extractive").as_json() == {"writer": "extractive"}
    assert RunOptions(writer="extractive").with_as_of("2026-06-01").as_json() == {
        "writer": "extractive",
        "as_of": "2026-06-01",
    }


@given(
    st.builds(
        RunOptions,
        writer=st.sampled_from(["", "extractive", "openai"]),
        web=st.booleans(),
        aspects=st.lists(st.text(max_size=20), max_size=3).map(tuple),
        criteria=st.lists(st.fixed_dictionaries({"description": st.text(max_size=20)}), max_size=3).map(tuple),
        as_of=st.sampled_from(["", "2026-01-31"]),
    )
)
def test_writing_then_reading_gives_the_same_options(options: RunOptions) -> None:
    assert RunOptions.of(options.as_json()) == options
