"""The ICP judge on the nineteenth round of fresh corpora (the report benchmark's pest-control-ph, laundry-ops-tr and
formation-pro-fr, measured before any rule was tuned on them): a region of several words is no place of its words
("Metro Manila"), ISO's country names ("Türkiye"), the lira's code in capitals and "milyon", the Gulf's countries,
customers asked for are not an office, "data of ... is stored in", "run on" the company is no hosting, a clause that
says no servers there, a continent is no town, a round's money spent and an investment loan are no round, "Ma." and
"Engr." end no sentence."""

from __future__ import annotations

import datetime

from research.writing.amounts import amounts_in
from research.writing.criteria import Criterion, NumericRule, RegionRule, rule_for
from research.writing.icp import judge
from research.writing.places import place_countries
from research.writing.presence import PresenceRule
from research.writing.residency import HostingRule
from research.writing.text import sentences
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)
PAMUKIZ = "Pamukiz Yazılım A.Ş."  # noqa: RUF001 (the Turkish dotless i)
METRO_MANILA = Criterion(
    "HQ in Metro Manila",
    "Principal office (head office) is in Metro Manila / NCR; a sales office in Makati or a representative office "
    "abroad don't count",
)


def test_a_region_of_several_words_is_not_a_place_of_its_words() -> None:
    rule = rule_for(METRO_MANILA)
    assert isinstance(rule, RegionRule)
    assert rule.countries == {"philippines"}  # not Indonesia's town of Metro
    assert rule.state == "metro manila"
    release = "Anaylog Systems, Inc. has its head office at Cebu IT Park, Lahug, Cebu City, and an office in Makati."
    verdict = judge(METRO_MANILA, "Anaylog Systems, Inc.", one_document(release), as_of=AS_OF)
    assert verdict.verdict == "no_match"
    # and in Manila it is a match
    manila = "Anaylog Systems, Inc. has its head office in Manila."
    assert judge(METRO_MANILA, "Anaylog Systems, Inc.", one_document(manila), as_of=AS_OF).verdict == "match"


def test_iso_names_of_countries_and_continents_that_are_no_towns() -> None:
    assert place_countries("Türkiye") == {"turkey"}
    assert place_countries("Turkiye") == {"turkey"}
    assert place_countries("the Asia Pacific region") == set()  # not the Batangas town of Asia
    hosting = rule_for(Criterion("Data hosted in Türkiye", "Its customers' data is hosted in Türkiye today"))
    assert isinstance(hosting, HostingRule)
    assert hosting.countries == {"turkey"}


def test_the_liras_code_in_capitals_and_turkish_millions() -> None:
    rule = rule_for(Criterion("Ciro above ₺350 milyon", "Annual revenue (ciro) above TRY 350 million"))
    assert isinstance(rule, NumericRule)
    assert (rule.metric, rule.low, rule.currency) == ("revenue", 350e6, "TRY")
    assert amounts_in("2025 cirosu ₺412 milyon", scaled=True) == {412e6}
    assert amounts_in("Try 14 days free, then 30 a month", scaled=True) == set()  # "Try" is no lira
    line = "2025 cirosu ₺412 milyon: our revenue in 2025 was ₺ 412 million, up from ₺ 236 million in 2024."
    criterion = Criterion("Ciro above ₺350 milyon", "Annual revenue (ciro) above TRY 350 million")
    verdict = judge(criterion, PAMUKIZ, one_document(line, title="Pamukiz careers"), as_of=AS_OF)
    assert verdict.verdict == "match"


GULF = Criterion(
    "Customers in the Gulf",
    "Has paying customers in a Gulf (GCC) country today, such as the UAE, Saudi Arabia or Qatar; a sales office "
    "there or a rival's Saudi customers don't count",
)


def test_customers_asked_for_in_the_gulf_are_not_a_sales_office_there() -> None:
    rule = rule_for(GULF)
    assert isinstance(rule, PresenceRule)
    assert rule.customers_only
    assert not rule.offices_only
    assert {"qatar", "kuwait", "oman", "bahrain"} <= rule.countries
    office = f"{PAMUKIZ} has its head office in Istanbul and a sales office in Dubai."
    assert judge(GULF, PAMUKIZ, one_document(office), as_of=AS_OF).verdict == "unknown"
    article = "Pamukiz has had a sales office in Dubai since March 2025 but no customer in the Gulf yet."
    verdict = judge(GULF, PAMUKIZ, one_document(office, article), as_of=AS_OF)
    assert verdict.verdict == "no_match"
    assert verdict.reason == "it has no customers in the GCC"
    served = "Pamukiz serves three hotel laundries in Doha."
    assert judge(GULF, PAMUKIZ, one_document(served), as_of=AS_OF).verdict == "match"
    # an office criterion is still met by an office
    offices = Criterion("Office in the Gulf", "Has an office in a GCC country")
    assert judge(offices, PAMUKIZ, one_document(office), as_of=AS_OF).verdict == "match"


def test_the_data_of_its_customers_stored_somewhere_is_hosting() -> None:
    criterion = Criterion(
        "Canadian customers' data hosted in Canada", "The data of its Canadian customers is stored in Canada"
    )
    assert isinstance(rule_for(criterion), HostingRule)


PHILIPPINES = Criterion(
    "Data hosted in the Philippines", "Client data is hosted today in a data centre located in the Philippines"
)


def test_customers_that_run_on_the_product_are_no_hosting() -> None:
    customers = "638 pest-control companies run on Anaylog: 638 PCOs in the Philippines and Indonesia."
    verdict = judge(PHILIPPINES, "Anaylog Systems, Inc.", one_document(customers), as_of=AS_OF)
    assert verdict.verdict == "unknown"
    on_aws = "Anaylog runs on AWS in Singapore."
    assert judge(PHILIPPINES, "Anaylog Systems, Inc.", one_document(on_aws), as_of=AS_OF).verdict == "no_match"


def test_a_later_clause_that_says_no_servers_there_is_no_hosting_there() -> None:
    home = (
        "Anaylog runs on Amazon Web Services in the Asia Pacific (Singapore) region, with encrypted backups in Asia "
        "Pacific (Tokyo); since we left our colocation rack in Mandaue in 2024, we have no servers of our own in the "
        "Philippines."
    )
    verdict = judge(PHILIPPINES, "Anaylog Systems, Inc.", one_document(home, title="Anaylog"), as_of=AS_OF)
    assert verdict.verdict == "no_match"


FRESH_EQUITY = Criterion(
    "Fresh equity since June 2026", "Closed an equity round between 1 June 2026 and 30 November 2026"
)


def test_what_a_rounds_money_goes_to_is_no_round() -> None:
    spent = "She said the Series A money goes to Steril, to Gebze and to the Gulf."
    podcast = one_document(spent, title="Pamukiz podcast", date="2026-11-10")
    assert judge(FRESH_EQUITY, PAMUKIZ, podcast, as_of=AS_OF).verdict == "unknown"


def test_an_investment_loan_is_no_round() -> None:
    loan = (
        "The equity comes on top of a ₺ 150 milyon five-year investment loan that Pamukiz took from Anadolu Bank in "
        "July 2026 to double the Gebze workshop."
    )
    verdict = judge(FRESH_EQUITY, PAMUKIZ, one_document(loan, title="Pamukiz"), as_of=AS_OF)
    assert verdict.verdict == "unknown"
    round_ = "Pamukiz closed a USD 9 million Series A on 14 July 2026."
    assert judge(FRESH_EQUITY, PAMUKIZ, one_document(round_), as_of=AS_OF).verdict == "match"


def test_philippine_titles_end_no_sentence() -> None:
    text = (
        "Anaylog was born in Cebu in 2014, when Ma. Cristina Abellana and Engr. Rodel Tabanao turned handwritten "
        "logbooks into software. It grew fast."
    )
    assert len(sentences(text)) == 2
