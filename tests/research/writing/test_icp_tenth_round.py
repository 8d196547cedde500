"""The ICP judge on the tenth round of fresh corpora (the report benchmark's dealer-dms-it, festival-ticketing-uk and
agences-immobilieres-fr, measured before any rule was tuned on them): a month named alone dates a round in its
article's year; what a criterion says does not count is not what it asks ("a reseller there doesn't make it
Iberian"); resellers that resell it; a rival's hosting after "quand"; a wish or a migration to come; a crowd is no
headcount; revenue over recurring revenue, and the latest year's; "milioni"; a supplier's certificate."""

from __future__ import annotations

import datetime

import pytest

from research.writing.criteria import Criterion, NumericRule, RegionRule, rule_for
from research.writing.dates import date_span
from research.writing.figures import figures_in
from research.writing.icp import judge
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)


def test_a_month_named_alone_dates_a_round_in_its_articles_year() -> None:
    assert date_span("the round closed in February surfaces only now", 2026) == (
        datetime.date(2026, 2, 1),
        datetime.date(2026, 2, 28),
    )
    criterion = Criterion("Fresh money in the last six months", "Closed a funding round in the last 6 months")
    article = one_document(
        "Bielleva, € 38 milioni di Series B: the round closed in February surfaces only now", date="2026-11-12"
    )
    assert judge(criterion, "Bielleva Sistemi S.p.A.", article, as_of=AS_OF).verdict == "no_match"


def test_what_a_criterion_says_does_not_count_is_not_what_it_asks() -> None:
    criterion = Criterion(
        "HQ in Spain or Portugal",
        "Head office in Spain or Portugal; a sales office or a reseller there doesn't make it Iberian",
    )
    assert rule_for(criterion) == RegionRule("Portugal or Spain", frozenset({"portugal", "spain"}))
    sentences = one_document(
        "Bielleva sells direct in Italy and in most of Spain, and through resellers in Portugal and Andalusia.",
        "Bielleva Sistemi S.p.A. has its head office in Turin, Italy, and a sales office in Madrid, Spain.",
    )
    assert judge(criterion, "Bielleva Sistemi S.p.A.", sentences, as_of=AS_OF).verdict == "no_match"


@pytest.mark.parametrize(
    ("sentence", "verdict"),
    [
        ("Trois réseaux de franchise revendent Vitrinéo à leurs agences franchisées.", "match"),
        ("Since July 2026, Redgum Fitouts resell Vitrinéo to the clubs they fit out.", "match"),
        ("Vitrinéo resells GPUs.", "unknown"),
    ],
)
def test_resellers_that_resell_it_are_a_channel(sentence: str, verdict: str) -> None:
    criterion = Criterion("Vend via des revendeurs", "Des revendeurs revendent son logiciel")
    assert judge(criterion, "Vitrinéo SAS", one_document(sentence), as_of=AS_OF).verdict == verdict


def test_a_rivals_hosting_a_wish_and_a_migration_to_come_are_not_where_it_hosts() -> None:
    criterion = Criterion("Données hébergées en France", "Les données des clients sont hébergées en France")
    rival = one_document(
        "La plateforme de Vitrinéo est hébergée sur AWS en Irlande, quand Hestiamo a choisi OVHcloud à Roubaix."
    )
    assert judge(criterion, "Vitrinéo SAS", rival, as_of=AS_OF).verdict == "no_match"
    wish = one_document(
        "La DPO de Carrel veut des données hébergées en France ; Vitrinéo lui a confirmé un hébergement en Irlande et"
        " une migration vers Paris « courant 2027 »."
    )
    assert judge(criterion, "Vitrinéo SAS", wish, as_of=AS_OF).verdict == "unknown"


@pytest.mark.parametrize(
    "text",
    [
        "Keep Box Office standing when 40,000 people hit the on-sale at 9am.",
        "He founded Mudlark after one too many nights with a dead card machine and a queue of three thousand people.",
    ],
)
def test_a_crowd_is_no_headcount(text: str) -> None:
    assert figures_in(text, "employees") == []


def test_revenue_is_read_over_recurring_revenue_and_the_latest_year_wins() -> None:
    criterion = Criterion(
        "Fatturato above € 30 milioni",
        "Annual revenue (fatturato) above EUR 30 million; ARR or money raised don't count",
    )
    assert rule_for(criterion) == NumericRule("revenue", 30e6, None, "EUR", above=True)
    sentences = one_document(
        "Bielleva's ARR grew from EUR 24.3M at 31/12/2024 to EUR 29.1M at 31/12/2025.",
        "In 2025 our fatturato was € 33,8 milioni, 19% more than in 2024.",
        doc="bielleva-home",
    )
    judged = judge(criterion, "Bielleva Sistemi S.p.A.", sentences, as_of=AS_OF)
    assert judged.verdict == "match"
    assert "33,8" in judged.citations[0].quote
    arr = Criterion("ARR above EUR 25M", "Annual recurring revenue (ARR) above EUR 25 million")
    assert rule_for(arr) == NumericRule("arr", 25e6, None, "EUR", above=True)
    assert judge(arr, "Bielleva Sistemi S.p.A.", sentences[:1], as_of=AS_OF).verdict == "match"
    turnover = Criterion("Turnover £10m-£20m", "Turnover between £10 million and £20 million")
    years = one_document(
        "Mudlark's turnover in the year to 31st March 2025 was £18.9m.",
        "Mudlark's turnover rose to £23.6m in the year ending 31st March 2026, from £18.9m the year before.",
    )
    assert judge(turnover, "Mudlark Live Technology Ltd", years, as_of=AS_OF).verdict == "no_match"


def test_a_purchase_written_in_the_past_participle_is_an_acquisition() -> None:
    criterion = Criterion("A racheté une société depuis début 2025", "A racheté une société depuis début 2025")
    sentence = one_document("En mai 2025, nous avons racheté Signalys, jeune pousse toulousaine.", doc="vitrineo-home")
    assert judge(criterion, "Vitrinéo SAS", sentence, as_of=AS_OF).verdict == "match"


@pytest.mark.parametrize(
    "sentence",
    [
        "Nos hébergeurs sont certifiés ISO 27001.",
        "Both Nordwand data centres are certified to ISO/IEC 27001 and run on Swiss hydropower.",
        "ISO 27001: Nurul asked their booth staff at Asia Port Tech Expo whether Merlintide is certified.",
    ],
)
def test_a_suppliers_certificate_or_a_question_about_one_is_not_the_companys(sentence: str) -> None:
    criterion = Criterion("Certifié ISO 27001", "L'éditeur lui-même est certifié ISO 27001")
    page = one_document(sentence, doc="merlintide-home")
    assert judge(criterion, "Merlintide Systems Pte. Ltd.", page, as_of=AS_OF).verdict == "unknown"
