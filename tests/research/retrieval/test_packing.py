from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from research.protocol import wire
from research.retrieval.embedders.sentence_transformer import packaged_minilm_path
from research.retrieval.packing import costs, frame_counts, pack, pack_truncating, to_wire
from research.retrieval.tokens import EstimatingCounter, TokenCounter, WordPieceCounter
from research.retrieval.types import Chunk, ScoredChunk

counter = EstimatingCounter()
words = st.lists(st.sampled_from(["alpha", "beta", "gamma", "pricing", "June", "2026", "Globex", "."]), max_size=120)


def _ranked(bodies: list[list[str]]) -> list[ScoredChunk]:
    return [ScoredChunk(Chunk(f"d{i}#0", f"d{i}", 0, " ".join(b)), 1.0 / (i + 1)) for i, b in enumerate(bodies)]


@given(st.lists(words, max_size=12), st.integers(min_value=0, max_value=600))
def test_packing_never_exceeds_the_budget_nor_splits_a_chunk(bodies: list[list[str]], budget: int) -> None:
    ranked = _ranked(bodies)
    packed = pack(ranked, budget=budget, counter=counter)
    assert packed.result.tokens <= budget
    assert sum(counter.count(text) for text in packed.rendered) == packed.result.tokens
    assert {c.chunk_id for c in packed.result.chunks} <= {c.chunk_id for c in ranked}
    for item, text in zip(packed.result.chunks, packed.rendered, strict=True):
        assert wire.parse(text)[0].text == item.chunk.text  # whole chunk, not a piece
    assert packed.result.omitted == len(ranked) - len(packed.result.chunks)
    positions = [ranked.index(item) for item in packed.result.chunks]
    assert positions == sorted(positions)


@given(st.lists(words, min_size=1, max_size=8), st.integers(min_value=0, max_value=400))
def test_truncating_pack_marks_every_cut(bodies: list[list[str]], budget: int) -> None:
    ranked = _ranked(bodies)
    packed = pack_truncating(ranked, budget=budget, counter=counter)
    assert packed.result.tokens <= budget
    for item, text in zip(packed.result.chunks, packed.rendered, strict=True):
        parsed = wire.parse(text)[0]
        original = next(r for r in ranked if r.chunk_id == item.chunk_id).chunk.text
        if parsed.text != original:
            assert parsed.truncated
            assert parsed.text.endswith(wire.TRUNCATION_MARKER)
    if len(packed.result.chunks) < len(ranked) or any(wire.parse(t)[0].truncated for t in packed.rendered):
        assert packed.result.truncated


def test_a_smaller_chunk_further_down_still_fits() -> None:
    ranked = _ranked([["big"] * 300, ["small"]])
    packed = pack(ranked, budget=60, counter=counter)
    assert [c.chunk_id for c in packed.result.chunks] == ["d1#0"]
    assert packed.result.omitted == 1


def test_the_limit_caps_the_number_of_chunks() -> None:
    packed = pack(_ranked([["a"]] * 5), budget=10_000, counter=counter, limit=2)
    assert [c.chunk_id for c in packed.result.chunks] == ["d0#0", "d1#0"]


def _word_piece() -> WordPieceCounter:
    return WordPieceCounter(packaged_minilm_path() / "tokenizer.json")


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(texts, texts, st.floats(min_value=-50, max_value=50, allow_nan=False)), min_size=1, max_size=6),
    st.sampled_from(["estimate", "wordpiece"]),
)
def test_stored_counts_give_exactly_the_rendered_count(chunks: list[tuple[str, str, float]], which: str) -> None:
    # the additivity packing relies on (at the newlines around the body, at the quotes around the score),
    # for any text and title, with both counters
    chosen: TokenCounter = counter if which == "estimate" else _word_piece()
    items = [
        ScoredChunk(Chunk(f"d{i}#0", f"d{i}", 0, text, title), score) for i, (title, text, score) in enumerate(chunks)
    ]
    frames = frame_counts([ScoredChunk(item.chunk, 0.0) for item in items], chosen)
    stored = [
        ScoredChunk(
            replace(
                item.chunk,
                body_tokens=chosen.count(wire.body(item.chunk.text)),
                body_counter=chosen.name,
                frame_tokens=frame,
            ),
            item.score,
        )
        for item, frame in zip(items, frames, strict=True)
    ]
    rendered = [chosen.count(wire.render(to_wire(item))) for item in items]
    assert costs(stored, chosen) == rendered
    assert costs(items, chosen) == rendered


def test_a_count_made_by_another_counter_is_ignored() -> None:
    item = ScoredChunk(Chunk("d#0", "d", 0, "alpha beta gamma"), 1.0)
    stale = ScoredChunk(
        replace(item.chunk, body_tokens=10_000, body_counter="some-other-tokenizer", frame_tokens=5), 1.0
    )
    assert costs([stale], counter) == costs([item], counter) == [counter.count(wire.render(to_wire(item)))]
    wrong = ScoredChunk(replace(item.chunk, body_tokens=10_000, body_counter=counter.name, frame_tokens=5), 1.0)
    assert costs([wrong], counter)[0] > 10_000  # a stored count is trusted: it is what the corpus wrote
