"""Readings where a common word or column name was taken for more than it says: a compass word for a country's
region ("the South" of Brazil is not Iceland's South region), a CRM row's "note" column for a review's score (the
row's country is still its headquarters), and a criterion's two bounds said apart (each bound's own words say
whether it keeps its figure: "80 people or more, ... under 400")."""

from __future__ import annotations

import datetime

import pytest

from research.writing.criteria import Criterion, NumericRule, RegionRule, rule_for
from research.writing.icp import judge
from research.writing.places import states_named
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)


@pytest.mark.parametrize(
    ("text", "regions"),
    [
        ("Sede in the South of Brazil: Paraná or Santa Catarina", ["parana", "santa catarina"]),
        ("Head office in the East, near the port", []),  # no country named: not Iceland's or Cameroon's East
        ("Headquartered in the South of Iceland", ["south"]),  # its country named: the region it has
        ("Siège social en région Centre", ["centre"]),  # called a region
        ("Rio Grande do Sul", ["rio grande do sul"]),  # a name with a compass word in it is still a name
    ],
)
def test_a_compass_word_is_a_region_only_where_its_country_is_named(text: str, regions: list[str]) -> None:
    assert [name for _, name, _ in states_named(text)] == regions


def test_a_criterion_on_the_south_of_a_country_is_not_a_region_elsewhere() -> None:
    rule = rule_for(Criterion("Sede in the South", "Head office in the South of Brazil (Paraná or Santa Catarina)"))
    assert isinstance(rule, RegionRule)
    assert rule.describe() == "headquarters in Paraná or Santa Catarina"
    assert rule.state.split("|") == ["parana", "santa catarina"]


CRM_ROW = (
    "account_name: Velmora Systems\ncountry: Portugal\nhq_city: Porto\nowner: J. Reis\n"
    "note: met at the Lisbon fair, call back in January"
)
REVIEW_ROW = "review_id: R-114\nproduct: Velmora Dispatch\nnote: 4/5\ncountry: Portugal\ntext: good routing"


def test_a_crm_rows_note_column_does_not_make_it_a_review() -> None:
    hq = Criterion("HQ in Portugal", "Headquarters in Portugal")
    verdict = judge(hq, "Velmora Systems", one_document(CRM_ROW), as_of=AS_OF)
    assert verdict.verdict == "match"
    # a review's "note" is its score, and its country the reviewer's: it decides nothing
    assert judge(hq, "Velmora Systems", one_document(REVIEW_ROW), as_of=AS_OF).verdict == "unknown"


@pytest.mark.parametrize(
    ("description", "rule"),
    [
        ("80 people or more, and under 400 people", NumericRule("employees", 80.0, 400.0, below=True)),
        ("More than 80 employees but at most 400", NumericRule("employees", 80.0, 400.0, above=True)),
        ("Effectif inférieur à 250 salariés", NumericRule("employees", None, 250.0, below=True)),
        ("Between 80 and 400 employees", NumericRule("employees", 80.0, 400.0)),
    ],
)
def test_each_bound_says_whether_it_keeps_its_figure(description: str, rule: NumericRule) -> None:
    assert rule_for(Criterion("Size", description)) == rule
