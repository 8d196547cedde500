from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research.retrieval.chunking import chunk_text
from research.retrieval.tokens import EstimatingCounter

counter = EstimatingCounter()
sentence = st.builds(
    lambda words, end: " ".join(words).capitalize() + end,
    st.lists(
        st.sampled_from(
            [
                "pricing",
                "rose",
                "in",
                "June",
                "Globex",
                "hired",
                "a",
                "new",
                "vice",
                "president",
                "extraordinarilyunbreakablelongword",
            ]
        ),
        min_size=1,
        max_size=40,
    ),
    st.sampled_from([".", "!", "?"]),
)
paragraph = st.lists(sentence, min_size=1, max_size=8).map(" ".join)
documents = st.lists(paragraph, min_size=0, max_size=8).map("\n\n".join)


@settings(max_examples=80)
@given(documents, st.integers(min_value=3, max_value=120))
def test_chunks_cover_the_text_in_order_within_the_limit(text: str, max_tokens: int) -> None:
    chunks = chunk_text(text, max_tokens=max_tokens, counter=counter)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        assert chunk.text == text[chunk.start : chunk.end]
        assert counter.count(chunk.text) <= max_tokens
    for before, after in itertools.pairwise(chunks):
        assert before.end <= after.start
        assert text[before.end : after.start].strip() == ""
    assert re.sub(r"\s+", "", "".join(c.text for c in chunks)) == re.sub(r"\s+", "", text)


def test_it_keeps_sentences_whole_when_they_fit() -> None:
    text = "First sentence is here. Second one follows it.\n\nA new paragraph starts. It ends."
    assert counter.count("First sentence is here.") == 6
    assert counter.count("Second one follows it.") == 6
    chunks = chunk_text(text, max_tokens=11, counter=counter)
    assert [c.text for c in chunks] == [
        "First sentence is here.",
        "Second one follows it.",
        "A new paragraph starts. It ends.",
    ]


def test_it_breaks_at_a_paragraph_once_half_full() -> None:
    text = "One two three four five six.\n\nSeven eight."
    assert [c.text for c in chunk_text(text, max_tokens=12, counter=counter)] == [
        "One two three four five six.",
        "Seven eight.",
    ]


def test_it_cuts_an_over_long_word_at_characters() -> None:
    chunks = chunk_text("x" * 500, max_tokens=10, counter=counter)
    assert "".join(c.text for c in chunks) == "x" * 500
    assert all(counter.count(c.text) <= 10 for c in chunks)


def test_it_rejects_a_zero_limit() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        chunk_text("text", max_tokens=0, counter=counter)
