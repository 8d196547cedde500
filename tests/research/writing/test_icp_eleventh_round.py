"""The ICP judge on the eleventh round of fresh corpora (the report benchmark's ehs-safety-fi,
restauration-collective-fr and freight-forwarding-mx, measured before any rule was tuned on them): a look-alike
whose legal form follows a comma or whose second word is accented; what a criterion lists as not counting, across
commas, after a full stop; a byline's date is not the round's; what the round's money paid for; a role sought is not
held; a certificate of someone named among or after the key words; a process towards a certificate; a first-level
region (a French région, an Australian state); Spanish, German and slashed dates."""

from __future__ import annotations

import datetime

import pytest

from research.writing.criteria import Criterion, NumericRule, RegionRule, StatementRule, rule_for
from research.writing.dates import date_span
from research.writing.figures import figures_in
from research.writing.icp import judge
from research.writing.names import known_as
from research.writing.places import place_countries, state_of
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)


@pytest.mark.parametrize(
    ("subject", "text", "lookalike"),
    [
        (
            "Anclaruta Software, S.A.P.I. de C.V.",
            "Anclaruta Software is not related to Anclaruta Agencia Aduanal, S.C., a customs brokerage.",
            "anclaruta agencia aduanal",
        ),
        (
            "Louchebel SAS",
            "Louchebel SAS n'a aucun lien avec Louchebel Équipements SAS, fabricant choletais de chariots.",
            "louchebel equipements",
        ),
    ],
)
def test_a_lookalike_with_its_legal_form_after_a_comma_or_an_accented_word_is_not_the_subject(
    subject: str, text: str, lookalike: str
) -> None:
    company = known_as(subject, one_document(text))
    assert lookalike in company.lookalikes
    headcount = Criterion("Mid-size team", "Between 100 and 250 employees on the payroll today")
    sentences = one_document(
        f"{text.rstrip('.')}, with about 310 employees.",
        f"Today we are 236 employees at {subject.split(maxsplit=1)[0]}.",
    )
    assert judge(headcount, subject, sentences, as_of=AS_OF).verdict == "match"


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        (
            "Revenue (facturación) above MXN 250 million in the last full fiscal year (2025). ARR, money raised, the "
            "previous year's revenue or a rival's revenue don't count",
            NumericRule("revenue", 250e6, None, "MXN", above=True),
        ),
        (
            "Chiffre d'affaires annuel supérieur à 12 millions d'euros. Ne comptent pas : l'ARR ou le revenu "
            "récurrent, les montants levés, ni le chiffre d'affaires d'un concurrent.",
            NumericRule("revenue", 12e6, None, "EUR", above=True),
        ),
        (
            "Its app is available in Norwegian today; a Norwegian reseller, Norwegian customers, a translation on "
            "the roadmap or a rival's Norwegian interface don't count",
            StatementRule(("app", "available")),
        ),
        (
            "L'éditeur détient lui-même une certification ISO/IEC 27001. Ne comptent pas : une démarche en cours.",
            StatementRule(("certification", "iso|iec", "27001")),
        ),
    ],
)
def test_what_a_criterion_lists_as_not_counting_is_not_what_it_asks(description: str, expected: object) -> None:
    assert rule_for(Criterion("criterion", description)) == expected


def test_the_european_union_is_no_town_called_union() -> None:
    assert place_countries("Headquartered in the European Union") == set()


def test_a_bylines_date_is_not_the_rounds_which_another_sentence_gives() -> None:
    criterion = Criterion("Raised a round since June 2026", "Closed an equity funding round since 1 June 2026")
    article = one_document(
        "Por Arturo Leal · 28 de octubre de 2026 · MONTERREY - Anclaruta Software raised USD 21 million in a Serie B.",
        "The round closed on 14 March 2026, when Anclaruta's shareholders approved the capital increase.",
        date="2026-10-28",
    )
    assert judge(criterion, "Anclaruta Software", article, as_of=AS_OF).verdict == "no_match"


def test_what_a_rounds_money_paid_for_is_not_the_round() -> None:
    criterion = Criterion("Levée récente", "A bouclé une levée de fonds depuis le 1er décembre 2025")
    article = one_document(
        "Chez Louchebel, l'argent de la série A a financé le rachat de Nutriplan, à Angers, en mars 2026.",
        date="2026-10-14",
    )
    assert judge(criterion, "Louchebel SAS", article, as_of=AS_OF).verdict == "unknown"
    rumour = one_document("Louchebel : tout le monde parlait d'une levée « au printemps ».", date="2026-11-19")
    assert judge(criterion, "Louchebel SAS", rumour, as_of=AS_OF).verdict == "unknown"


def test_a_role_it_is_looking_for_is_not_held() -> None:
    criterion = Criterion("Country manager for the US in the seat", "Has a country manager for the United States")
    article = one_document("Anclaruta is also looking for its first country manager for the United States.")
    assert judge(criterion, "Anclaruta", article, as_of=AS_OF).verdict != "match"
    held = one_document("Anclaruta's country manager for the United States, Ana Ruiz, runs the Laredo office.")
    assert judge(criterion, "Anclaruta", held, as_of=AS_OF).verdict == "match"


@pytest.mark.parametrize(
    "sentence",
    [
        "La certification : Saladier est certifié ISO 27001 depuis 2023 ; Louchebel ne l'est pas.",
        "Louchebel : ce sont les certificats HDS et ISO 27001 d'OVHcloud, leur hébergeur.",
        "Louchebel a engagé sa démarche de certification ISO/IEC 27001 en janvier 2026.",
    ],
)
def test_a_certificate_of_another_or_one_worked_towards_is_not_held(sentence: str) -> None:
    criterion = Criterion("Certifié ISO 27001", "Certification ISO 27001")
    assert judge(criterion, "Louchebel SAS", one_document(sentence), as_of=AS_OF).verdict != "match"
    held = one_document("Louchebel est certifiée ISO 27001 depuis mars 2024.")
    assert judge(criterion, "Louchebel SAS", held, as_of=AS_OF).verdict == "match"


def test_a_head_office_in_a_region_of_a_country_is_read_from_its_citys_region() -> None:
    criterion = Criterion(
        "Siège social en Auvergne-Rhône-Alpes",
        "Siège social situé en région Auvergne-Rhône-Alpes. Une agence commerciale dans la région ne suffit pas.",
    )
    rule = rule_for(criterion)
    assert isinstance(rule, RegionRule)
    assert rule.state == "auvergne rhone alpes"
    assert state_of("Nantes (Loire-Atlantique)", "france") == "pays de la loire"
    assert state_of("Sydney, 14 in Auckland", "australia") == "new south wales"
    nantes = one_document("Louchebel SAS a son siège social à Nantes (Loire-Atlantique) et des agences à Lyon.")
    assert judge(criterion, "Louchebel SAS", nantes, as_of=AS_OF).verdict == "no_match"
    lyon = one_document("Cantinomie SAS a son siège social à Villeurbanne, près de Lyon.")
    assert judge(criterion, "Cantinomie SAS", lyon, as_of=AS_OF).verdict == "match"
    bretagne = Criterion("Siège en Bretagne", "Siège social en Bretagne")  # GeoNames says "Brittany"
    rennes = one_document("Ambulink SAS a son siège social à Rennes.")
    assert judge(bretagne, "Ambulink SAS", rennes, as_of=AS_OF).verdict == "match"
    assert judge(bretagne, "Louchebel SAS", nantes, as_of=AS_OF).verdict == "no_match"
    queensland = Criterion("HQ in Queensland", "Headquartered in Queensland")
    brisbane = one_document("Plateloop is headquartered in Brisbane, Australia.")
    assert judge(queensland, "Plateloop", brisbane, as_of=AS_OF).verdict == "match"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("28 de octubre de 2026", (datetime.date(2026, 10, 28),) * 2),
        ("14. März 2026", (datetime.date(2026, 3, 14),) * 2),
        ("closed 14/03/2026", (datetime.date(2026, 3, 14),) * 2),
        ("closed 03/14/2026", (datetime.date(2026, 3, 14),) * 2),
        ("on 03/04/2026", (datetime.date(2026, 3, 4), datetime.date(2026, 4, 3))),  # either way round
    ],
)
def test_spanish_german_and_slashed_dates(text: str, expected: tuple[datetime.date, datetime.date]) -> None:
    assert date_span(text) == expected


def test_a_french_revenue_that_reached_a_figure_and_recurring_revenue_before_the_word_revenue() -> None:
    assert figures_in("En 2025, notre chiffre d'affaires a atteint 11,4 millions d'euros.", "revenue") == [11.4e6]
    criterion = Criterion("Facturación over MXN $250 millones", "Revenue above MXN 250 million in 2025")
    sentences = one_document(
        "Anclaruta's ARR reached USD 15.2M at June 30, 2026; the rest of its revenue comes from implementation fees.",
        "Anclaruta's revenue in 2025 was MXN 312 million.",
    )
    assert judge(criterion, "Anclaruta", sentences, as_of=AS_OF).verdict == "match"


def test_a_code_the_criterions_name_gives_is_asked_in_the_clause_that_holds_the_rest() -> None:
    criterion = Criterion(
        "TISAX AL3 label in hand",
        "Holds a valid TISAX label at assessment level 3 (AL3) today; an AL2 label doesn't count",
    )
    rule = rule_for(criterion)
    assert isinstance(rule, StatementRule)
    assert "al3" in rule.keys
    al2 = one_document(
        "Bielleva holds a TISAX label at assessment level 2 (AL2), valid until 30/09/2027; the AL3 assessment is "
        "under way and we expect the result in spring 2027."
    )
    assert judge(criterion, "Bielleva", al2, as_of=AS_OF).verdict == "unknown"
    asked = one_document("Luca asked Bielleva for the TISAX AL3 label; Bielleva showed the AL2 label.")
    assert judge(criterion, "Bielleva", asked, as_of=AS_OF).verdict == "unknown"
    al3 = one_document("Bielleva holds a valid TISAX label at AL3 since March 2026.")
    assert judge(criterion, "Bielleva", al3, as_of=AS_OF).verdict == "match"
