"""The ICP judge on the twelfth round of fresh corpora (the report benchmark's scaffolding-rental-nl,
transport-sanitaire-fr and winery-erp-ar, measured before any rule was tuned on them): a founding year; "It" after a
sentence that opens with another name is that other's; "will become its CEO"; "miljoen"; data "stored in a data
centre"; where it was hosted before; a capital increase dated in another sentence; a job "based in our Laredo
office"."""

from __future__ import annotations

import datetime

import pytest

from research.writing.amounts import amount_value
from research.writing.criteria import Criterion, HostingRule, rule_for
from research.writing.figures import figures_in
from research.writing.founded import FoundedRule, founded_rule, founding_year
from research.writing.icp import judge
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Founded before 2010", FoundedRule(latest=2009)),
        ("Créée après 2015", FoundedRule(earliest=2016)),
        ("Founded in 2015 or later", FoundedRule(earliest=2015)),
        ("Founded between 2010 and 2020", FoundedRule(2010, 2020)),
        ("Less than 10 years old", FoundedRule(younger_than=10)),
        ("Founder still runs the company", None),
        ("Founders in charge since 2015", None),
    ],
)
def test_a_founding_year_criterion(text: str, rule: FoundedRule | None) -> None:
    assert founded_rule(text) == rule


def test_the_founding_year_decides_and_a_rivals_or_lookalikes_does_not() -> None:
    assert founding_year("Uvalia was founded in Mendoza in 2011 by Mariana Lucero") == (2011, 11)
    assert founding_year("In 2011, two engineers founded Uvalia") == (2011, 0)
    assert founding_year("Fondée en 2014 à Rennes, Kerlance édite Régul") == (2014, 0)
    before = Criterion("Founded before 2010", "Founded before 2010")
    young = Criterion("Young", "Less than 20 years old")
    sentences = one_document(
        "Cuyotrack S.A., Uvalia's competitor from San Juan, founded in 2008, announced a round.",
        "Uvalia was founded in Mendoza in 2011 by Mariana Lucero and Tomás Garay.",
    )
    assert judge(before, "Uvalia Software S.A.", sentences, as_of=AS_OF).verdict == "no_match"
    assert judge(young, "Uvalia Software S.A.", sentences, as_of=AS_OF).verdict == "match"  # 2011: 15 years
    assert judge(young, "Uvalia Software S.A.", sentences, as_of=AS_OF).citations[0].quote.startswith("Uvalia was")


def test_it_after_a_sentence_that_opens_with_another_name_is_that_others() -> None:
    criterion = Criterion("100 to 250 empleados", "Between 100 and 250 employees today")
    item = one_document(
        "San Juan's Cuyotrack, a rival of Uvalia and Parronal, has raised USD 6 millones. It has 410 bodegas and 260 "
        "employees.",
        "Uvalia has raised a seed round. It has 186 employees in Mendoza.",
    )
    judged = judge(criterion, "Uvalia Software S.A.", item, as_of=AS_OF)
    assert judged.verdict == "match"
    assert "186" in judged.citations[0].quote


def test_will_become_its_ceo_is_a_new_executive() -> None:
    criterion = Criterion("New CEO in the last twelve months", "A new CEO since 1 December 2025")
    release = one_document(
        "MENDOZA, 18 de agosto de 2026 - Uvalia Software S.A. today announced that Julián Ferreyra will become its "
        "CEO on 1 September 2026."
    )
    assert judge(criterion, "Uvalia Software S.A.", release, as_of=AS_OF).verdict == "match"


def test_dutch_and_other_scale_words() -> None:
    assert amount_value("13,6", "miljoen") == 13.6e6
    assert figures_in("Our ARR stood at € 13,6 miljoen at the end of September 2026.", "revenue")[0] == 13.6e6


def test_data_stored_in_a_data_centre_is_a_hosting_criterion_and_a_former_host_decides_nothing() -> None:
    criterion = Criterion(
        "Customer data hosted in the Netherlands",
        "Its customers' production data is stored in a data centre in the Netherlands today",
    )
    assert isinstance(rule_for(criterion), HostingRule)
    former = one_document("Until June 2024 everything ran on our own servers in a data centre in Eindhoven.")
    assert judge(criterion, "Koppelvast", former, as_of=AS_OF).verdict == "unknown"
    now = one_document("We host Koppelvast on Amazon Web Services in the Frankfurt region, Germany.")
    assert judge(criterion, "Koppelvast", now, as_of=AS_OF).verdict == "no_match"


def test_a_capital_increase_signed_earlier_dates_the_round_an_article_tells() -> None:
    criterion = Criterion(
        "Levée de fonds depuis le 1er juin 2026", "A bouclé une levée de fonds depuis le 1er juin 2026"
    )
    article = one_document(
        "L'éditeur rennais Kerlance a bouclé une Série B sans l'annoncer.",
        "Chez Kerlance, l'augmentation de capital a été signée le 29 avril 2026.",
        date="2026-10-14",
    )
    assert judge(criterion, "Kerlance SAS", article, as_of=AS_OF).verdict == "no_match"


def test_a_job_based_in_an_office_says_nothing_of_the_head_office() -> None:
    criterion = Criterion("US-headquartered", "Corporate head office in the United States")
    job = one_document("Anclaruta: a new role, reporting to Ileana, based in our Laredo office.")
    assert judge(criterion, "Anclaruta", job, as_of=AS_OF).verdict == "unknown"
    head = one_document("Anclaruta is based in Monterrey, Mexico.")
    assert judge(criterion, "Anclaruta", head, as_of=AS_OF).verdict == "no_match"
