"""The ICP judge on the sixteenth round of fresh corpora (the report benchmark's skipass-ticketing-at,
logiciel-notarial-fr and coworking-ops-kr, measured before any rule was tuned on them): a row dated by its own date
field, a month after "em", the first date of a sentence wherever an ISO one stands; who a company sells to, in other
words; millions of people served are no headcount; "Tirol"; a registered office is a head office; a technology
phrase read by its name and a migration to it still to come; the names a criterion's name gives; a review's country,
a person's base, a cloud's possessive and "en région" decide nothing."""

from __future__ import annotations

import datetime

import pytest

from research.writing.buyers import BuyerRule
from research.writing.criteria import Criterion, RegionRule, TechRule, rule_for
from research.writing.dates import date_span
from research.writing.figures import figures_in, revenue_figures
from research.writing.icp import judge
from research.writing.places import state_named
from research.writing.statements import StatementRule
from research.writing.text import sentences
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)
FUNDING = Criterion("Raised equity in the last 12 months", "Closed an equity round between 2025.12.01 and 2026.11.30")


def test_a_row_is_dated_by_its_own_date_field_and_a_month_after_it_is_of_the_year_before() -> None:
    row = one_document(
        "jemok: Jarimaru raised 180 eok won in November, tells now naljja: 2026.02.03 maeche: PropTech Korea Daily",
        date="2026-11-27",  # the export's date, not the item's
    )
    verdict = judge(FUNDING, "Jarimaru Inc.", row, as_of=AS_OF)
    assert verdict.verdict == "no_match"
    assert "2025-11" in verdict.reason


def test_the_first_date_of_a_sentence_wherever_an_iso_date_stands() -> None:
    text = "titular: Frotalume angariou 14 milhões em março e só agora se soube fecha: 2026-10-27"
    march = (datetime.date(2026, 3, 1), datetime.date(2026, 3, 31))
    assert date_span(text, 2026) == march
    assert date_span("released 2026-09-01, announced in March 2026") == (datetime.date(2026, 9, 1),) * 2


@pytest.mark.parametrize(
    ("company", "sentence"),
    [
        ("Pistora Ticketing GmbH", "Pistora sells only to lift operators, ski-pass alliances and tourism boards."),
        ("Minutalis SAS", "Minutalis ne vend qu'aux offices notariaux : études individuelles et groupements."),
    ],
)
def test_a_company_that_sells_only_to_a_kind_of_business(company: str, sentence: str) -> None:
    b2b = Criterion("B2B only", "Sells its software to businesses (lift operators), not to consumers")
    assert rule_for(b2b) == BuyerRule(business=True)
    assert judge(b2b, company, one_document(sentence), as_of=AS_OF).verdict == "match"


def test_paying_customers_alone_make_no_who_pays_criterion() -> None:
    live = Criterion(
        "Dynamic pricing live", "Its dynamic pricing is generally available and in use at paying customers"
    )
    assert not isinstance(rule_for(live), BuyerRule)


def test_millions_of_people_served_are_no_headcount() -> None:
    assert figures_in("Karriere bei Pistora: build the ski day of four million people", "employees") == []
    assert figures_in("Today we are 236 people in Innsbruck and Bozen.", "employees") == [236.0]


def test_a_bundesland_in_its_own_spelling_and_a_registered_office() -> None:
    assert state_named("in the Austrian Bundesland Tirol") == ("Tirol", "tyrol", frozenset({"austria"}))
    tirol = Criterion("HQ in Tirol", "Registered office (Firmensitz) in the Austrian Bundesland Tirol")
    rule = rule_for(tirol)
    assert isinstance(rule, RegionRule)
    assert rule.state == "tyrol"
    office = "Pistora Ticketing GmbH has its registered office in Innsbruck, and a sales office in Bozen."
    assert judge(tirol, "Pistora Ticketing GmbH", one_document(office), as_of=AS_OF).verdict == "match"


def test_a_technology_phrase_is_read_by_its_name_and_a_migration_to_come_is_no_use() -> None:
    secnum = Criterion(
        "Hébergement qualifié SecNumCloud", "La plateforme est hébergée sur une offre qualifiée SecNumCloud par l'ANSSI"
    )
    assert rule_for(secnum) == TechRule("SecNumCloud")
    planned = "L'argent doit financer la migration de la plateforme de Minutalis vers un cloud qualifié SecNumCloud."
    assert judge(secnum, "Minutalis SAS", one_document(planned), as_of=AS_OF).verdict == "unknown"
    denied = "Minutalis tourne sur l'offre Public Cloud d'OVHcloud, qui n'est pas qualifiée SecNumCloud."
    assert judge(secnum, "Minutalis SAS", one_document(denied), as_of=AS_OF).verdict == "no_match"


def test_the_names_a_criterions_name_gives_are_asked_for() -> None:
    wallet = Criterion(
        "Mobile keys in Samsung Wallet or Apple Wallet",
        "Members of its customers open doors today with a key stored in Samsung Wallet or Apple Wallet",
    )
    rule = rule_for(wallet)
    assert isinstance(rule, StatementRule)
    assert rule.keys[-2:] == ("samsung|apple", "wallet")
    own_app = "Jarimaru offers access control with mobile keys in its own app; members open the doors with it."
    assert judge(wallet, "Jarimaru Inc.", one_document(own_app), as_of=AS_OF).verdict == "unknown"
    # a place's initials are no name asked for: "the US" is written "USA" too
    us = Criterion("Country manager for the US in the seat", "Has a country manager for the US in the seat today")
    assert "us" not in rule_for(us).keys  # type: ignore[union-attr]


def test_a_reviews_country_and_a_persons_base_are_no_head_office() -> None:
    hq = Criterion("Head office in New Zealand", "Head office in New Zealand")
    review = "review_id: CR-88105 posted: 30/09/2026 vendor: Kaikaro stars: 4 reviewer_role: Practice owner country: UK"
    person = "Sameer Qureshi, Country Manager, GCC, based in Dubai, joined Kaikaro in May."
    evidence = one_document(review, person, "Kaikaro's head office is in Christchurch.")
    verdict = judge(hq, "Kaikaro Software Limited", evidence, as_of=AS_OF)
    assert verdict.verdict == "match"
    assert "Christchurch" in verdict.citations[0].quote


def test_a_clouds_possessive_and_the_provinces_decide_no_hosting() -> None:
    sovereign = Criterion("No US hyperscaler", "Hosts without AWS, Azure or Google Cloud")
    advice = one_document('"Ask Zirbelmark for their own C5 report, not AWS\'s."')
    assert judge(sovereign, "Zirbelmark GmbH", advice, as_of=AS_OF).verdict == "unknown"
    morocco = Criterion("Données hébergées au Maroc", "Héberge les données de ses clients au Maroc")
    resellers = "En région, Safranelle travaille avec six revendeurs agréés, comme Souss Info Pharma à Agadir."
    assert judge(morocco, "Safranelle Santé SARL", one_document(resellers), as_of=AS_OF).verdict == "unknown"


def test_sentences_go_on_after_german_abbreviations() -> None:
    text = "Gipfel costs EUR 1.290,- per month zzgl. MwSt. and EUR 19,- per gate. Mag. Teresa Obexer is the CFO."
    assert sentences(text) == [
        "Gipfel costs EUR 1.290,- per month zzgl. MwSt. and EUR 19,- per gate.",
        "Mag. Teresa Obexer is the CFO.",
    ]


def test_revenue_in_eok_won() -> None:
    assert revenue_figures("Revenue of 127 eok won (KRW 12.7 billion) in FY2025, up from 94 eok won.") == [
        (12.7e9, "KRW"),
        (12.7e9, "KRW"),
    ]
