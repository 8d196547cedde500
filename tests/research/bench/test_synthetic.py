from __future__ import annotations

from collections import Counter

from research.bench import synthetic


def test_chunks_are_deterministic_for_a_seed_and_differ_across_seeds() -> None:
    assert synthetic.chunks(20, seed=3) == synthetic.chunks(20, seed=3)
    assert synthetic.chunks(20, seed=3) != synthetic.chunks(20, seed=4)
    assert synthetic.queries(10, seed=3) == synthetic.queries(10, seed=3)


def test_chunks_have_the_asked_length_in_sentences() -> None:
    texts = synthetic.chunks(200, seed=2)
    for text in texts:
        words = text.split()
        assert 120 <= len(words) <= 250 + 250 // 8  # an entity name adds one word to its slot
        assert text[0].isupper()
        assert text.endswith(".")


def test_word_frequencies_follow_a_long_tailed_rank_distribution() -> None:
    counts = Counter(word.strip(".").lower() for text in synthetic.chunks(300, seed=5) for word in text.split())
    ranked = [word for word, _ in counts.most_common()]
    assert ranked[0] == "the"
    assert counts["the"] > 5 * counts[ranked[200]]
    assert len(counts) > 5000  # a long tail of rare words


def test_vocabulary_words_and_entities_are_distinct() -> None:
    vocab = synthetic.vocabulary(1)
    assert len(set(vocab.words)) == len(vocab.words) == 20_000
    assert len(set(vocab.entities)) == 2_000
    assert abs(vocab.cdf[-1] - 1.0) < 1e-9


def test_queries_are_three_to_eight_content_words() -> None:
    for query in synthetic.queries(100, seed=1):
        words = query.split()
        assert 3 <= len(words) <= 9
        assert not {w.lower() for w in words} & set(synthetic.FUNCTION_WORDS)
