"""A seeded pseudo-English corpus for speed benchmarks: Zipf-distributed words and entity names in sentences."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FUNCTION_WORDS = (
    "the of and to a in is that for it as was with be by on not he this are or his from at which but have an "
    "they you were her she there been one all we their has would when if so no its who more will can other "
    "into than these some could them only then may over also new such after most first two should any about "
    "time up out between many made those each our under where while both through same state during before"
).split()
_ONSETS = "b c d f g h j k l m n p r s t v w".split()
_VOWELS = "a e i o u".split()
_CODAS = ["", "", "n", "r", "s", "t", "l", "m", "d"]
ONE_SYLLABLE_RANKS = 600  # of the 680 one-syllable words; ranks after that get two syllables
ZIPF_EXPONENT = 1.0


@dataclass(frozen=True)
class Vocabulary:
    words: tuple[str, ...]  # by frequency rank
    entities: tuple[str, ...]
    cdf: NDArray[np.float64]  # cumulative Zipf probabilities over ``words``


def _generated_words(rng: np.random.Generator, count: int, taken: set[str], *, short: int = 0) -> list[str]:
    """``count`` new words: the first ``short`` of one syllable, the rest of two."""
    syllables = [onset + vowel + coda for onset in _ONSETS for vowel in _VOWELS for coda in _CODAS]
    if short > len(set(syllables)):
        raise ValueError(f"only {len(set(syllables))} one-syllable words exist")
    words: list[str] = []
    while len(words) < count:
        parts = 1 if len(words) < short else 2
        for row in rng.integers(0, len(syllables), size=(256, parts)):
            word = "".join(syllables[int(i)] for i in row)
            if word not in taken and len(words) < count and (parts == 1) == (len(words) < short):
                taken.add(word)
                words.append(word)
    return words


@functools.cache
def vocabulary(seed: int, *, size: int = 20_000, entities: int = 2_000) -> Vocabulary:
    """Words by Zipf rank: real English function words first (as in English, the top hundred words make up
    about half of running text, and BM25's stop-word list drops them), then words made of syllables."""
    rng = np.random.default_rng(seed)
    taken = set(FUNCTION_WORDS)
    words = FUNCTION_WORDS + _generated_words(rng, size - len(FUNCTION_WORDS), taken, short=ONE_SYLLABLE_RANKS)
    names = _generated_words(rng, 2 * entities, taken)
    entity_names = tuple(f"{a.title()} {b.title()}" for a, b in zip(names[::2], names[1::2], strict=True))
    weights = 1.0 / np.arange(1, size + 1) ** ZIPF_EXPONENT
    return Vocabulary(tuple(words), entity_names, np.cumsum(weights / weights.sum()))


def _draw(vocab: Vocabulary, rng: np.random.Generator, count: int, *, skip: int = 0) -> list[str]:
    """``count`` words by Zipf rank; ``skip`` leaves out the most frequent ranks."""
    low = vocab.cdf[skip - 1] if skip else 0.0
    positions = np.searchsorted(vocab.cdf, rng.uniform(low, 1.0, count), side="right")
    return [vocab.words[min(int(p), len(vocab.words) - 1)] for p in positions]


def _sentences(words: list[str], rng: np.random.Generator) -> str:
    out: list[str] = []
    start = 0
    while start < len(words):
        stop = min(len(words), start + int(rng.integers(8, 21)))
        sentence = " ".join(words[start:stop])
        out.append(sentence[:1].upper() + sentence[1:] + ".")
        start = stop
    return " ".join(out)


def _with_entities(words: list[str], vocab: Vocabulary, rng: np.random.Generator, rate: float) -> list[str]:
    slots = np.flatnonzero(rng.random(len(words)) < rate)
    if slots.size:
        picks = np.minimum(rng.zipf(1.3, slots.size) - 1, len(vocab.entities) - 1)
        for slot, pick in zip(slots, picks, strict=True):
            words[int(slot)] = vocab.entities[int(pick)]
    return words


def chunks(count: int, *, seed: int = 1, min_words: int = 120, max_words: int = 250) -> list[str]:
    """``count`` chunk texts of ``min_words`` to ``max_words`` words (about 190-470 MiniLM word pieces, so each
    fits one 512-token chunk), about 3% of word slots holding an entity name; the same for the same seed."""
    vocab = vocabulary(seed)
    rng = np.random.default_rng([seed, 1])
    lengths = rng.integers(min_words, max_words + 1, count)
    texts = []
    for length in lengths:
        words = _with_entities(_draw(vocab, rng, int(length)), vocab, rng, rate=0.03)
        texts.append(_sentences(words, rng))
    return texts


def queries(count: int, *, seed: int = 1, min_words: int = 3, max_words: int = 8) -> list[str]:
    """Keyword queries from the chunks' distribution without its function words; a third name an entity."""
    vocab = vocabulary(seed)
    rng = np.random.default_rng([seed, 2])
    out = []
    for _ in range(count):
        words = _draw(vocab, rng, int(rng.integers(min_words, max_words + 1)), skip=len(FUNCTION_WORDS))
        if rng.random() < 1 / 3:
            words[0] = vocab.entities[min(int(rng.zipf(1.3)) - 1, len(vocab.entities) - 1)]
        out.append(" ".join(words))
    return out
