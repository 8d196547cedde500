"""The sparse index of one corpus: BM25 (Robertson and Zaragoza, 2009) over chunk texts with ``bm25s``.

bm25s builds a static sparse matrix, so the index is rebuilt from the corpus's chunks after each
change (``rebuild``), written to a fresh version folder and switched to atomically through the
``CURRENT`` file; readers reload when ``CURRENT`` names a newer version. Each version also keeps its
chunks' token counts (``lengths.npy``), so several corpora can be scored with shared statistics
(``shared_bm25``).

Language: each version is tokenized in one language, English or French, decided at the rebuild from the chunk
texts (``language_of`` over a sample of at most ``LANGUAGE_SAMPLE`` chunks: the majority's function words win, so
a mostly French corpus with a few English documents is French throughout) and kept in ``language.txt``; a
version without that file (written before languages were kept) is English. Queries are tokenized in the
language of the version they are scored against. English: bm25s's English stop words and the Snowball English
stemmer (unchanged). French: accents folded first (NFKD, combining marks dropped), then bm25s's French stop
words (folded alike), then the Snowball French stemmer, a folded word's final "ee"/"ees" (a feminine past
participle, "-ée(s)") first shortened to "e"/"es". Folding comes first, on chunks and queries alike, because
French queries typed without accents are common and the stemmer strips an accented ending but not the bare one
("levée" -> "lev", "levee" -> "leve"); folded, "levée", "levées", "levee" and "lever" all give "lev", and
"salarié", "salariées" and "salaries" all "salar". The cost: words told apart only by an accent share a term
("côte", "côté", "cote"), and a few stems the stemmer draws from an accent are lost ("employé" no longer
meets "emploi").
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import unicodedata
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import Stemmer
from bm25s.stopwords import STOPWORDS_FRENCH

from research.retrieval.language import language_of

ENGLISH = "en"
LANGUAGE_FILE = "language.txt"
LANGUAGE_SAMPLE = 1000  # chunks read to decide an index's language (evenly spread over the corpus)


def fold_accents(text: str) -> str:
    """``text`` without diacritics: NFKD, combining marks dropped ("Levée" -> "Levee", "ç" -> "c")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


STEMMERS = {"en": Stemmer.Stemmer("english"), "fr": Stemmer.Stemmer("french")}  # Snowball, by language
_FOLDED_FEMININE = re.compile(r"ee(s?)$")  # "levee(s)", folded from "levée(s)"


def _french_stems(words: list[str]) -> list[str]:
    """Snowball French stems of folded words, "-ee(s)" read as "-e(s)" (unfolded, the stemmer strips "-ée")."""
    stems: list[str] = STEMMERS["fr"].stemWords([_FOLDED_FEMININE.sub(r"e\1", word) for word in words])
    return stems


@dataclass(frozen=True)
class _Tokenizer:
    stopwords: str | list[str]
    stems: Callable[[list[str]], list[str]]
    fold: bool


_TOKENIZERS = {
    "en": _Tokenizer("en", STEMMERS["en"].stemWords, fold=False),
    "fr": _Tokenizer(sorted({fold_accents(w) for w in STOPWORDS_FRENCH}), _french_stems, fold=True),
}


def tokenize(texts: list[str], language: str = ENGLISH) -> list[list[str]]:
    """Each text's BM25 terms in ``language`` ("en" or "fr"; English by default): lower-cased words of two
    letters or more, stop words dropped, stemmed (French: accents folded first; see the module's docstring)."""
    tokenizer = _TOKENIZERS[language]
    if tokenizer.fold:
        texts = [fold_accents(text) for text in texts]
    tokens = bm25s.tokenize(
        texts,
        stopwords=tokenizer.stopwords,
        stemmer=tokenizer.stems,
        return_ids=False,
        show_progress=False,
    )
    return [list(t) for t in tokens]


def with_title(text: str, *, title: str = "", publisher: str = "") -> str:
    """A chunk's text as BM25 indexes it: its document's title (unless the text already opens with it) and who
    the document says published it, then the text.

    A page's heading and publisher name what it is about where its chunks often do not: a pricing table under
    "Pay for what you store, read and write", on a page whose copyright line is the company's. Without them a
    search for the company's prices ranked its two pricing pages 8th and 9th. As BM25F weighs a title field,
    every chunk of the document gets their terms. The chunk's stored and shown text is unchanged; the dense
    vectors are the text's alone."""
    title = title.strip()
    head = [part for part in (title if not text.lstrip().startswith(title) else "", publisher.strip()) if part]
    return "\n".join([*head, text]) if head else text


def corpus_language(texts: list[str]) -> str:
    """The language an index over ``texts`` is tokenized in: ``language_of`` over an even sample of them."""
    step = max(1, -(-len(texts) // LANGUAGE_SAMPLE))
    return language_of(texts[::step])


def stored_language(folder: Path) -> str:
    """The language a version folder was tokenized in: English when it keeps none (written before languages
    were) or names one this code does not know."""
    path = folder / LANGUAGE_FILE
    language = path.read_text().strip() if path.exists() else ENGLISH
    return language if language in _TOKENIZERS else ENGLISH


@dataclass(frozen=True)
class SparseSnapshot:
    """One loaded version of a sparse index: its chunk ids, its bm25s retriever, each chunk's token count
    (None for a version written before counts were kept), and the language its texts were tokenized in
    (queries against it are tokenized the same way)."""

    ids: list[str]
    retriever: Any
    lengths: np.ndarray[Any, np.dtype[np.int64]] | None
    language: str = ENGLISH


class SparseIndex:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._version: str | None = None
        self._retriever: Any = None
        self._ids: list[str] = []
        self._lengths: np.ndarray[Any, np.dtype[np.int64]] | None = None
        self._language = ENGLISH

    def _current(self) -> str | None:
        pointer = self.directory / "CURRENT"
        return pointer.read_text().strip() if pointer.exists() else None

    def rebuild(self, chunks: Iterable[tuple[str, str]], *, language: str | None = None) -> int:
        """Index every (chunk id, text) in ``language`` (None: the texts' own, ``corpus_language``); returns the
        number indexed. Safe against concurrent readers."""
        ids, texts = [], []
        for chunk_id, text in chunks:
            ids.append(chunk_id)
            texts.append(text)
        if language is None:
            language = corpus_language(texts)
        elif language not in _TOKENIZERS:
            raise ValueError(f"no BM25 tokenizer for language {language!r} (known: {', '.join(_TOKENIZERS)})")
        version = f"v-{uuid.uuid4().hex[:12]}"
        target = self.directory / version
        target.mkdir(parents=True)
        (target / LANGUAGE_FILE).write_text(language)
        if ids:
            tokens = tokenize(texts, language)
            retriever = bm25s.BM25()
            retriever.index(tokens, show_progress=False)
            retriever.save(str(target), show_progress=False)
            np.save(target / "lengths.npy", np.array([len(t) for t in tokens], dtype=np.int64))
        (target / "ids.json").write_text(json.dumps(ids))
        previous = self._current()
        temporary = self.directory / f"CURRENT.{version}"
        temporary.write_text(version)
        os.replace(temporary, self.directory / "CURRENT")
        if previous and previous != version:
            shutil.rmtree(self.directory / previous, ignore_errors=True)
        return len(ids)

    def _load(self) -> None:
        version = self._current()
        if version == self._version:
            return
        if version is None:
            self._version, self._retriever, self._ids, self._lengths = None, None, [], None
            self._language = ENGLISH
            return
        folder = self.directory / version
        ids = json.loads((folder / "ids.json").read_text())
        retriever = bm25s.BM25.load(str(folder), mmap=False) if ids else None
        lengths = np.load(folder / "lengths.npy") if (folder / "lengths.npy").exists() else None
        self._version, self._retriever, self._ids, self._lengths = version, retriever, ids, lengths
        self._language = stored_language(folder)

    def snapshot(self) -> SparseSnapshot | None:
        """The current version (reloaded if a newer one was written), or None while the index is empty."""
        with self._lock:
            self._load()
            if self._retriever is None:
                return None
            return SparseSnapshot(self._ids, self._retriever, self._lengths, self._language)

    def language(self) -> str:
        """The language the current version was tokenized in (English while the index is empty)."""
        with self._lock:
            self._load()
            return self._language

    def count(self) -> int:
        with self._lock:
            self._load()
            return len(self._ids)

    def query(self, text: str, *, n: int, exclude: frozenset[str]) -> list[tuple[str, float]]:
        """The ``n`` best (chunk id, BM25 score) pairs with a positive score, not in ``exclude``."""
        with self._lock:
            self._load()
            retriever, ids, language = self._retriever, self._ids, self._language
        query_tokens = tokenize([text], language)
        if retriever is None or not query_tokens[0] or n <= 0:
            return []
        k = min(len(ids), n + len(exclude))
        documents, scores = retriever.retrieve(query_tokens, k=k, show_progress=False, n_threads=0)
        hits = [
            (ids[int(index)], float(score))
            for index, score in zip(np.asarray(documents)[0], np.asarray(scores)[0], strict=True)
            if score > 0 and ids[int(index)] not in exclude
        ]
        return hits[:n]
