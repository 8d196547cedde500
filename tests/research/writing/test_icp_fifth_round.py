"""The ICP judge on criteria and sentences as the fifth round of teams wrote them (the report benchmark's
syndic-copropriete-qc, procurement-saas-in and vet-practice-nz corpora, measured before any rule was tuned on them):
who pays (B2B or B2C), a window between two days or "in the twelve months to", a French calendar year and a new
member of the "haute direction", a tool's "shop", a name that says "Rentable", a head office criterion's places that
"don't count"."""

from __future__ import annotations

import datetime

import pytest

from research.writing.buyers import BuyerRule, businesses_pay
from research.writing.channel import ChannelRule
from research.writing.citations import Evidence
from research.writing.criteria import Criterion, EventRule, RegionRule, TechRule, rule_for
from research.writing.icp import judge

AS_OF = datetime.date(2026, 11, 30)


def verdict(name: str, description: str, *texts: str) -> str:
    evidence = [
        Evidence(f"c{i}#0", f"c{i}", "Kaikaro pricing", "kaikaro-pricing.htm", text, rank=i)
        for i, text in enumerate(texts)
    ]
    return judge(Criterion(name, description), "Kaikaro Software Limited", evidence, as_of=AS_OF).verdict


@pytest.mark.parametrize(
    ("name", "description", "rule"),
    [
        (
            "Clinic pays (B2B)",
            "The product is paid for by the business (the vet clinic), not by pet owners",
            BuyerRule(),
        ),
        ("Vend aux syndicats (B2B)", "Ce sont des organisations qui paient l'abonnement", BuyerRule()),
        ("Consumer app", "B2C: paid for by consumers", BuyerRule(business=False)),
        (
            "Financement en 2026",
            "A conclu une ronde de financement en capital au cours de l'année civile 2026",
            EventRule("funding", 365, since=datetime.date(2026, 1, 1), until=datetime.date(2026, 12, 31)),
        ),
        (
            "Nouvelle direction depuis le 1er décembre 2025",
            "Un nouveau membre de la haute direction est entré en fonction depuis le 1er décembre 2025",
            EventRule("executive", 365, since=datetime.date(2025, 12, 1)),
        ),
        (
            "Fresh funding",
            "Closed an equity funding round between 1 December 2025 and 30 November 2026",
            EventRule("funding", 365, since=datetime.date(2025, 12, 1), until=datetime.date(2026, 11, 30)),
        ),
        (
            "New CFO",
            "A chief financial or executive officer started in the role in the 12 months to 30 November 2026",
            EventRule("executive", 365),
        ),
        (
            "New CRO",
            "A new Chief Revenue Officer joined in the twelve months before 30th November 2026",
            EventRule("executive", 365),
        ),
        ("Salesforce shop", "Its own sales team works in Salesforce CRM today", TechRule("Salesforce")),
        ("CRM HubSpot", "L'entreprise utilise elle-même HubSpot comme CRM", TechRule("HubSpot")),
        (
            "Head office in New Zealand",
            "Headquarters in New Zealand; an Australian subsidiary or a UK sales office doesn't count",
            RegionRule("New Zealand", frozenset({"new zealand"})),
        ),
        (
            "Siège social au Québec",
            "Siège social (pas un simple bureau de ventes ni une filiale en Ontario) situé au Québec",
            RegionRule("Canada", frozenset({"canada"})),
        ),
    ],
)
def test_criteria_read_as_the_fifth_round_wrote_them(name: str, description: str, rule: object) -> None:
    assert rule_for(Criterion(name, description)) == rule


def test_a_sentence_that_names_a_look_alike_gives_no_headcount() -> None:
    lookalike = _article(
        "Kaikaro should not be confused with Kaikoro Labs Limited, the Hamilton laboratory (about 210 staff)."
    )
    size = Criterion("50-150 staff", "Employs between 50 and 150 people today")
    assert judge(size, "Kaikaro Software Limited", [lookalike], as_of=AS_OF).verdict == "unknown"


@pytest.mark.parametrize(
    ("sentence", "business"),
    [
        ("Kaikaro is billed to the clinic. Pet owners never pay a cent to book online.", True),
        ("C'est le syndicat de copropriété ou son gestionnaire qui paie l'abonnement.", True),
        ("Le Portail Lucarne est toujours gratuit pour les copropriétaires.", True),
        ("Ondalys est un éditeur SaaS B2B.", True),
        ("The app is sold directly to consumers through the app stores.", False),
        ("Les particuliers paient 4,99 € par mois.", False),
        ("Trois ans d'expérience en vente de logiciels B2B.", None),  # a job ad's requirement
        ("Invoices are billed to consumers monthly.", None),
    ],
)
def test_who_pays_is_read_from_what_a_sentence_says(sentence: str, business: bool | None) -> None:
    assert businesses_pay(sentence) is business


def test_who_pays_decides_a_b2b_criterion() -> None:
    said = "Kaikaro is billed to the clinic. Pet owners never pay a cent to book online, or use the pet owner app."
    assert verdict("Clinic pays (B2B)", "Paid for by the business, not by consumers", said) == "match"
    assert verdict("Consumers pay (B2C)", "B2C: paid for by consumers", said) == "no_match"
    assert verdict("Clinic pays (B2B)", "Paid for by the business", "Kaikaro has 96 staff.") == "unknown"


def _article(text: str) -> Evidence:
    title = "Christchurch vet-software startup Kaikaro banks $28m as trans-Tasman fight heats up"
    return Evidence("a#0", "a", title, "southern-ledger.html", text, publisher="The Southern Ledger Ltd")


def test_it_is_the_name_that_says_it() -> None:
    rival = _article("Bluegum says it has 240 staff and about 1,100 client clinics, almost all of them in Australia.")
    size = Criterion("50-150 staff", "Employs between 50 and 150 people today")
    assert judge(size, "Kaikaro Software Limited", [rival], as_of=AS_OF).verdict == "unknown"
    assert judge(size, "Kaikaro Software Limited", [_article("It has 96 staff.")], as_of=AS_OF).verdict == "match"


def test_not_only_direct_sales_asks_for_a_channel() -> None:
    wanted = "Resellers, distributors or wholesalers sell its software, not only direct sales or referrals"
    assert rule_for(Criterion("Sells through resellers", wanted)) == ChannelRule(direct=False)


def test_a_place_based_company_opening_an_office_elsewhere_is_headquartered_at_home() -> None:
    toronto = "Sherbrooke, Que.-based Kaikaro Software opened a four-person sales office at 200 Adelaide Street West."
    assert verdict("HQ in Canada", "Headquarters in Canada", toronto) == "match"
