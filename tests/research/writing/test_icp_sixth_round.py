"""The ICP judge on criteria and rows as the sixth round of teams wrote them (the report benchmark's field-service-za,
pharmacie-officine-ma and port-terminal-sg corpora, measured before any rule was tuned on them): where the data is
hosted (not where the company is), and a look-alike whose legal form is "(Pty) Ltd"."""

from __future__ import annotations

import datetime

import pytest

from research.writing.citations import Evidence
from research.writing.criteria import Criterion, PresenceRule, TechRule, rule_for
from research.writing.icp import judge
from research.writing.names import Company, basename, known_as
from research.writing.residency import HostingRule, hosted_where

AS_OF = datetime.date(2026, 11, 27)
MOROCCO = HostingRule("Morocco", frozenset({"morocco"}))


@pytest.mark.parametrize(
    ("name", "description", "rule"),
    [
        ("Données hébergées au Maroc", "Héberge les données de santé de ses clients au Maroc aujourd'hui", MOROCCO),
        ("EU data residency", "Customer data stays in Germany", HostingRule("Germany", frozenset({"germany"}))),
        ("Runs on Azure", "Hosts its platform on Microsoft Azure", TechRule("Microsoft Azure")),
        ("Office in Germany", "Has an office in Germany", PresenceRule("Germany", frozenset({"germany"}), False, True)),
    ],
)
def test_a_criterion_on_where_data_is_hosted_is_not_one_on_offices_or_clouds(
    name: str, description: str, rule: object
) -> None:
    assert rule_for(Criterion(name, description)) == rule


@pytest.mark.parametrize(
    ("sentence", "hosted"),
    [
        ("Nos données sont hébergées à Casablanca.", True),
        ("Les API tournent sur Microsoft Azure, dans la région France Central (Paris).", False),
        ("Safranelle (Casablanca) héberge ses données chez Azure à Paris.", False),  # the office is no data centre
        ("Un cloud marocain est prévu pour 2027.", None),  # a plan is not where the data is today
        ("Safranelle has 87 employees in Casablanca.", None),  # no hosting
    ],
)
def test_where_a_sentence_says_the_data_is_hosted(sentence: str, hosted: bool | None) -> None:
    assert hosted_where(MOROCCO, sentence) is hosted


def test_hosting_elsewhere_decides_no_match_and_an_office_decides_nothing() -> None:
    criterion = Criterion("Données hébergées au Maroc", "Héberge les données de ses clients au Maroc")
    office = "Safranelle (Casablanca) is the challenger among Moroccan pharmacy-software vendors."
    hosting = "Safranelle : le back-office et les API tournent sur Microsoft Azure, dans la région France Central."
    evidence = [
        Evidence(f"c{i}#0", f"c{i}", "Safranelle", "safranelle-carrieres.html", text, rank=i)
        for i, text in enumerate((office, hosting))
    ]
    judged = judge(criterion, "Safranelle Santé SARL", evidence, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert judged.citations[0].quote == hosting


def test_a_look_alike_with_a_legal_form_in_parentheses_is_known_and_its_row_says_nothing() -> None:
    assert basename("Ukhozi Fuel Services (Pty) Ltd") == "Ukhozi Fuel Services"
    assert basename("Ukhozi Field Systems (Pty) Ltd") == "Ukhozi Field Systems"
    assert Company.plain("Ukhozi Field Systems (Pty) Ltd").names[:2] == (
        "ukhozi field systems pty ltd",
        "ukhozi field systems",
    )
    row = Evidence(
        "crm#0",
        "crm",
        "crm-companies-export row 40152",
        "crm-companies-export-2026-11-27.tsv",
        "Record ID: 40152\nCompany name: Ukhozi Fuel Services (Pty) Ltd\nCity: Pietermaritzburg\n"
        "Notes: NOT the software company. Diesel distributor, 310 staff, new CEO Bongani Zulu from 1 Oct 2026.",
    )
    assert "ukhozi fuel services" in known_as("Ukhozi Field Systems (Pty) Ltd", [row]).lookalikes
    size = Criterion("100-250 employees", "Between 100 and 250 employees today")
    assert judge(size, "Ukhozi Field Systems (Pty) Ltd", [row], as_of=AS_OF).verdict == "unknown"
