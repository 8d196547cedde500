"""The ICP judge on the seventeenth round of fresh corpora (the report benchmark's school-transport-br,
greenhouse-climate-ca and maintenance-ascenseurs-fr, measured before any rule was tuned on them, the last two with
part of these readings in the working tree): "R$ 50 milhões"; a row's date field is not its event's date; "in
pilot", money "to develop" it; a head office in one of several states; "Leamington, Ontario"; a look-alike with "&";
"more than 150" is not 150; revenue written amount first, and whose it is."""

from __future__ import annotations

import datetime

import pytest

from research.writing.criteria import Criterion, NumericRule, RegionRule, rule_for
from research.writing.figures import revenue_figures
from research.writing.icp import judge
from research.writing.names import known_as
from research.writing.places import place_country
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)


def test_a_revenue_criterion_in_reais() -> None:
    revenue = Criterion("Faturamento above R$ 50 milhões", "Annual revenue (faturamento) above R$ 50 million")
    assert rule_for(revenue) == NumericRule("revenue", 50e6, None, "BRL", above=True)
    figures = "Rotacerta: faturamento de R$ 41,7 milhões em 2025, up from R$ 29,3 milhões in 2024."
    assert judge(revenue, "Rotacerta Tecnologia S.A.", one_document(figures), as_of=AS_OF).verdict == "no_match"


def test_a_rows_date_field_is_when_it_was_told_not_when_it_happened() -> None:
    funding = Criterion("Equity round in the last 12 months", "Closed an equity round between 1 December 2025 and now")
    row = one_document(
        "manchete: Rotacerta revela Série B de R$ 48 milhões data: 2026-10-06 veiculo: Transporte Escolar em Pauta "
        "resumo: Rotacerta has disclosed a R$ 48 milhões Series B signed on 18/11/2025."
    )
    verdict = judge(funding, "Rotacerta Tecnologia S.A.", row, as_of=AS_OF)
    assert verdict.verdict == "no_match"
    assert "2025-11" in verdict.reason


FACIAL = Criterion("Facial-recognition boarding live", "Facial recognition at boarding is generally available today")


@pytest.mark.parametrize(
    "sentence",
    [
        "Rotacerta's facial recognition at the door of the bus is in pilot in Campo Alvorada (PR) since August 2026.",
        "FINEP has granted Rotacerta a R$ 15 milhões loan to develop facial recognition for school-bus boarding.",
    ],
)
def test_a_pilot_or_money_to_develop_it_is_not_live(sentence: str) -> None:
    assert judge(FACIAL, "Rotacerta Tecnologia S.A.", one_document(sentence), as_of=AS_OF).verdict == "no_match"


def test_a_head_office_in_one_of_several_states() -> None:
    south = Criterion(
        "Sede in the South",
        "Head office in one of Brazil's southern states: Paraná (PR), Santa Catarina or Rio Grande do Sul",
    )
    rule = rule_for(south)
    assert isinstance(rule, RegionRule)
    assert rule.state.split("|") == ["parana", "santa catarina", "rio grande do sul"]
    curitiba = "Rotacerta Tecnologia S.A. is headquartered in Curitiba, with offices in São Paulo and Santiago."
    assert judge(south, "Rotacerta Tecnologia S.A.", one_document(curitiba), as_of=AS_OF).verdict == "match"
    sao_paulo = "Rotacerta Tecnologia S.A. is headquartered in São Paulo."
    assert judge(south, "Rotacerta Tecnologia S.A.", one_document(sao_paulo), as_of=AS_OF).verdict == "no_match"


@pytest.mark.parametrize(
    ("place", "country"),
    [
        ("Leamington, Ontario, with offices in Wooster, Ohio", "canada"),  # not the Californian city of Ontario
        ("Ontario, California", "united states"),
        ("Registered office: Harbourside Works, Hanover Place, Bristol BS1 6XZ.", "united kingdom"),  # no parish
    ],
)
def test_a_region_written_after_a_city_says_which_country(place: str, country: str) -> None:
    assert place_country(place) == country


def test_a_lookalike_with_an_ampersand_and_more_than_is_not_as_many() -> None:
    note = one_document(
        "Vitrelle Growtech Inc. is not related to Vitrelle Glass & Structures Ltd., of Abbotsford, B.C. The company "
        "has 340 employees.",
        "Vitrelle Growtech has 186 employees today.",
    )
    assert "vitrelle glass structures" in known_as("Vitrelle Growtech Inc.", note).lookalikes
    staff = Criterion("More than 200 employees", "More than 200 employees today")
    assert judge(staff, "Vitrelle Growtech Inc.", note, as_of=AS_OF).verdict == "no_match"
    about = one_document("Moufléa a quelque 150 salariés à Toulouse.")
    more = Criterion("Plus de 150 collaborateurs", "Emploie plus de 150 collaborateurs")
    at_least = Criterion("Au moins 150 collaborateurs", "Emploie au moins 150 collaborateurs")
    assert judge(more, "Moufléa SAS", about, as_of=AS_OF).verdict == "no_match"
    assert judge(at_least, "Moufléa SAS", about, as_of=AS_OF).verdict == "match"


def test_revenue_written_amount_first_and_whose_it_is() -> None:
    assert revenue_figures("11,6 millions d'euros de chiffre d'affaires en 2025, contre 8,7 millions en 2024.") == [
        (11.6e6, "EUR")
    ]
    assert revenue_figures("Moufléa a réalisé un chiffre d'affaires de 11,6 millions d'euros en 2025.") == [
        (11.6e6, "EUR")
    ]
    revenue = Criterion("CA supérieur à 15 M€", "Chiffre d'affaires supérieur à 15 millions d'euros")
    rival = one_document(
        "Ambulog a réalisé 21,3 millions d'euros de chiffre d'affaires en 2025, contre 13,4 millions pour Kerlance.",
        "En 2025, le chiffre d'affaires de Kerlance a atteint 13,4 millions d'euros.",
    )
    assert judge(revenue, "Kerlance SAS", rival, as_of=AS_OF).verdict == "no_match"
