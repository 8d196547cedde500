"""BM25 in the corpus's language: a French corpus is stemmed in French, its stop words dropped and its accents folded;
English corpora and version folders written before languages were kept are tokenized as before."""

from __future__ import annotations

from pathlib import Path

import bm25s
import pytest
import Stemmer

from research.retrieval import shared_bm25
from research.retrieval.sparse import LANGUAGE_FILE, SparseIndex, SparseSnapshot, tokenize

FRENCH = [
    ("a#0", "Le cabinet annonce le recrutement de douze médecins généralistes pour ses centres médicaux."),
    ("b#0", "Les salariés du siège de Nantes sont passés de 40 à 65 en un an."),
    ("c#0", "La société a réalisé une levée de fonds de 18 millions d'euros menée par Aubépine Capital."),
    (
        "d#0",
        "Le logiciel réunit l'agenda, le dossier patient, la facturation et la téléconsultation, sans installation.",
    ),
    ("e#0", "Le tarif de la formule Cabinet passe à 59 euros par praticien et par mois en septembre."),
]
ENGLISH = [
    ("a#0", "The company is hiring twelve engineers for its Manchester office."),
    ("b#0", "Employees of the headquarters grew from 40 to 65 in one year."),
    ("c#0", "The firm raised 18 million euros in a round led by Larkspur Row."),
    ("d#0", "The software brings together scheduling, payroll and reporting."),
]


def _built(folder: Path, chunks: list[tuple[str, str]], **options: str) -> SparseIndex:
    index = SparseIndex(folder)
    index.rebuild(chunks, **options)
    return index


def _ids(index: SparseIndex, query: str) -> list[str]:
    return [chunk_id for chunk_id, _ in index.query(query, n=10, exclude=frozenset())]


def _old_tokenize(texts: list[str]) -> list[list[str]]:
    """The tokenizer every index used before languages were kept (English stop words, English stemmer)."""
    stemmer = Stemmer.Stemmer("english")
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer.stemWords, return_ids=False, show_progress=False)
    return [list(t) for t in tokens]


def test_a_french_corpus_is_indexed_in_french_and_keeps_its_language(tmp_path: Path) -> None:
    index = _built(tmp_path / "fr", FRENCH)
    assert index.language() == "fr"
    snapshot = index.snapshot()
    assert snapshot is not None
    assert snapshot.language == "fr"
    version = (tmp_path / "fr" / "CURRENT").read_text().strip()
    assert (tmp_path / "fr" / version / LANGUAGE_FILE).read_text() == "fr"
    assert _built(tmp_path / "en", ENGLISH).language() == "en"


# A query in another inflection than the chunk's word, which only French stemming relates to it.
INFLECTIONS = [
    ("recrutés", "a#0"),  # "recrutement" in the chunk
    ("médicale", "a#0"),  # "médicaux"
    ("installés", "d#0"),  # "installation"
    ("salariée", "b#0"),  # "salariés"
]


@pytest.mark.parametrize(("query", "expected"), INFLECTIONS)
def test_french_stemming_finds_another_inflection(tmp_path: Path, query: str, expected: str) -> None:
    assert _ids(_built(tmp_path, FRENCH), query) == [expected]


@pytest.mark.parametrize(("query", "chunk"), INFLECTIONS[:3])
def test_the_english_tokenizer_missed_those_inflections(tmp_path: Path, query: str, chunk: str) -> None:
    """What the test above adds: under the old English-only tokenizer the query and the chunk share no term, and
    an index in English (as every index was) does not find the chunk. ("salariée" and "salariés" already met.)"""
    text = dict(FRENCH)[chunk]
    assert not set(_old_tokenize([query])[0]) & set(_old_tokenize([text])[0])
    assert set(tokenize([query], "fr")[0]) & set(tokenize([text], "fr")[0])
    assert chunk not in _ids(_built(tmp_path, FRENCH, language="en"), query)


def test_french_stop_words_do_not_score(tmp_path: Path) -> None:
    index = _built(tmp_path, FRENCH)
    assert tokenize(["le des la les du à été"], "fr") == [[]]
    assert _ids(index, "le des la les") == []
    # a chunk full of "le" does not beat the one chunk with the query's only content word
    assert _ids(index, "le le le des des tarif") == ["e#0"]


def test_french_queries_typed_without_accents_find_accented_text(tmp_path: Path) -> None:
    index = _built(tmp_path, FRENCH)
    assert _ids(index, "levee de fonds") == ["c#0"]
    assert _ids(index, "medecins generalistes") == ["a#0"]
    assert _ids(index, "teleconsultation") == ["d#0"]
    assert _ids(index, "salaries") == ["b#0"]
    # accented or not, masculine or feminine, singular or plural: one term
    for forms in (
        ["salarié", "salariés", "salariée", "salariées", "salaries", "SALARIÉS"],
        ["levée", "levee", "lever"],
    ):
        assert len({tuple(tokenize([form], "fr")[0]) for form in forms}) == 1, forms


def test_english_tokenizing_is_unchanged() -> None:
    texts = [text for _, text in ENGLISH] + ["A café's résumé: the naïve hiring of employees", ""]
    assert tokenize(texts) == tokenize(texts, "en") == _old_tokenize(texts)


def test_an_english_corpus_ranks_as_before(tmp_path: Path) -> None:
    index = _built(tmp_path, ENGLISH)
    assert index.language() == "en"
    assert _ids(index, "hire engineers") == ["a#0"]
    assert _ids(index, "the of in") == []  # English stop words


def test_a_version_without_a_language_file_loads_as_english(tmp_path: Path) -> None:
    """An index written before languages were kept: English, as it was tokenized."""
    _built(tmp_path, FRENCH, language="en")
    version = (tmp_path / "CURRENT").read_text().strip()
    before = _ids(SparseIndex(tmp_path), "recrutement des salariés")
    (tmp_path / version / LANGUAGE_FILE).unlink()
    reopened = SparseIndex(tmp_path)
    assert reopened.language() == "en"
    snapshot = reopened.snapshot()
    assert snapshot is not None
    assert snapshot.language == "en"
    assert _ids(reopened, "recrutement des salariés") == before != []


def test_an_unknown_language_is_refused_at_rebuild(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no BM25 tokenizer"):
        SparseIndex(tmp_path).rebuild(FRENCH, language="de")


def test_an_empty_index_is_english(tmp_path: Path) -> None:
    index = SparseIndex(tmp_path)
    assert index.language() == "en"
    assert index.snapshot() is None
    index.rebuild([])
    assert index.language() == "en"
    assert _ids(index, "recrutement") == []


def _shared(snapshots: list[SparseSnapshot | None], query: str) -> list[tuple[str, float]]:
    return shared_bm25.query([s for s in snapshots if s is not None], query, n=10, exclude=frozenset())


def test_shared_statistics_over_one_french_corpus_rank_as_its_own_index(tmp_path: Path) -> None:
    index = _built(tmp_path, FRENCH)
    for query in ("recrutés", "salarié", "levee de fonds", "le des", "tarif praticien mois"):
        alone = index.query(query, n=10, exclude=frozenset())
        together = _shared([index.snapshot()], query)
        assert [i for i, _ in together] == [i for i, _ in alone]
        assert [s for _, s in together] == pytest.approx([s for _, s in alone], rel=1e-4)


def test_corpora_in_two_languages_are_each_queried_in_their_own(tmp_path: Path) -> None:
    french = _built(tmp_path / "fr", [(f"fr-{i}", t) for i, t in FRENCH])
    english = _built(tmp_path / "en", [(f"en-{i}", t) for i, t in ENGLISH])
    snapshots = [french.snapshot(), english.snapshot()]
    assert [i for i, _ in _shared(snapshots, "salarié")] == ["fr-b#0"]  # French stemming for the French corpus
    assert [i for i, _ in _shared(snapshots, "hire")] == ["en-a#0"]  # English stemming for the English one
    assert _shared(snapshots, "le des the of") == []  # each language's stop words
    assert {i for i, _ in _shared(snapshots, "recrutement hiring")} == {"fr-a#0", "en-a#0"}
