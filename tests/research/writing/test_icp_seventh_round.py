"""The ICP judge on the seventh round of fresh corpora (the report benchmark's biogas-plants-de and
menuiserie-erp-fr, measured before any rule was tuned on them): money in a table read as one line is no
headcount, a headcount the sentence puts in the past loses to today's, a round is dated by the words that date it
(not by the article that told it), and a rumoured round is no round."""

from __future__ import annotations

import datetime

from research.writing.citations import Evidence
from research.writing.criteria import Criterion
from research.writing.dates import date_span
from research.writing.figures import figures_in
from research.writing.icp import judge
from tests.research.writing.conftest import one_document


def _gaerwerk(*texts: str, doc: str = "a", date: str | None = None) -> list[Evidence]:
    return one_document(*texts, doc=doc, date=date, title="Gärwerk")


AS_OF = datetime.date(2026, 11, 30)


def test_money_in_a_table_read_as_one_line_is_no_headcount() -> None:
    row = "Biotrend SteuerungstechnikLandshut | 38 | 410 | EUR 4.1m Staff as at 30 June 2026, full-time equivalents."
    assert figures_in(row, "employees") == []
    assert figures_in("Gärwerk now has about 95 staff.", "employees") == [95.0]


def test_a_headcount_in_the_past_loses_to_todays() -> None:
    criterion = Criterion("Entre 50 et 100 salariés", "Entre 50 et 100 salariés aujourd'hui")
    evidence = _gaerwerk(
        "D'après lui, Copeaux était à 114 salariés début 2025, avant le plan de départs volontaires de 18 postes.",
        "Nous sommes 96 salariés, dont 81 à Annecy.",
        doc="copeaux",
    )
    judged = judge(criterion, "Copeaux Logiciels SAS", evidence, as_of=AS_OF)
    assert judged.verdict == "match"
    assert "96 salariés" in judged.citations[0].quote
    # the past figure alone still decides (it is all there is)
    alone = judge(criterion, "Copeaux Logiciels SAS", evidence[:1], as_of=AS_OF)
    assert alone.verdict == "no_match"


def test_a_round_is_dated_by_the_words_that_date_it_not_by_the_article() -> None:
    criterion = Criterion("Raised money in the last 12 months", "Closed an equity funding round in the last 12 months")
    article = _gaerwerk(
        "Oldenburg's Gärwerk raises EUR 14 million to put biogas plants online",
        "The round closed in September 2025, but Gärwerk kept it quiet until its customers had been told.",
        doc="article",
        date="2025-12-02",
    )
    judged = judge(criterion, "Gärwerk Anlagensoftware GmbH", article, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert "September 2025" in judged.citations[0].quote
    # without the sentence that dates it, the article's date is the round's
    assert judge(criterion, "Gärwerk Anlagensoftware GmbH", article[:1], as_of=AS_OF).verdict == "match"
    # another round the article recalls does not move the new one's date
    recalled = _gaerwerk(
        "Gärwerk raises EUR 14 million in a Series A round.",
        "Ammerland Beteiligungen put EUR 2.5 million into Gärwerk in 2019.",
        doc="other",
        date="2026-10-02",
    )
    assert judge(criterion, "Gärwerk Anlagensoftware GmbH", recalled, as_of=AS_OF).verdict == "match"


def test_a_rumoured_round_is_no_round() -> None:
    criterion = Criterion("Levée de fonds depuis moins de 6 mois", "A levé des fonds dans les 6 derniers mois")
    rumour = _gaerwerk(
        "Un commercial de chez Copeaux parlait d'une série B « l'an prochain », mais c'est une rumeur de salon.",
        doc="notes",
        date="2026-10-20",
    )
    judged = judge(criterion, "Copeaux Logiciels SAS", rumour, as_of=AS_OF)
    assert judged.verdict == "unknown"


def test_what_a_round_adds_up_to_since_founding_does_not_date_it() -> None:
    criterion = Criterion("Levée de fonds récente", "A levé des fonds dans les 12 derniers mois")
    article = _gaerwerk(
        "Fourchelune lève 12 millions d'euros pour sa caisse cloud.",
        "Avec ce tour, la société a levé 34,5 millions d'euros depuis sa création en 2019.",
        doc="press",
        date="2026-09-15",
    )
    assert judge(criterion, "Fourchelune SAS", article, as_of=AS_OF).verdict == "match"


def test_a_sentence_that_refers_back_to_the_round_is_dated_by_the_one_that_says_when_it_closed() -> None:
    criterion = Criterion("Raised money in the last 12 months", "Closed an equity funding round in the last 12 months")
    article = _gaerwerk(
        "The Bergen-based company Fjordlinje Billett AS closed a NOK 180 million Series B round on 20 November 2025.",
        "The round was not announced until now.",
        doc="kystnytt",
        date="2026-01-08",
    )
    judged = judge(criterion, "Fjordlinje Billett AS", article, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert "20 November 2025" in judged.citations[0].quote


def test_a_day_written_day_first_with_dots_dates_a_round() -> None:
    assert date_span("Series B NOK 180 million, closed 20.11.2025 (announced 8.1.2026)") == (
        datetime.date(2025, 11, 20),
        datetime.date(2025, 11, 20),
    )
    criterion = Criterion("Raised money in the last 12 months", "Closed an equity funding round in the last 12 months")
    table = (
        "| Item | Fjordlinje | |---|---| | People | 142 per their careers page; Nordvik said 136 FTE at 30 June | "
        "| Money | Series B NOK 180 million, closed 20.11.2025 (announced 8.1.2026), lead Havørn Kapital |"
    )
    row = _gaerwerk(table, doc="battlecard-fjordlinje", date="2026-11-20")
    assert judge(criterion, "Fjordlinje Billett AS", row, as_of=AS_OF).verdict == "no_match"
