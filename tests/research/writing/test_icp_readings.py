"""How the offline ICP judge reads criteria a sales team writes in its own words, and decides them: presence in
or outside a place (not headquarters), sales territories, tools the company moved off or only integrates with,
French hosting, and statement criteria whose key word alone would be stated by any sentence."""

from __future__ import annotations

import datetime

import pytest

from research.writing.channel import ChannelRule
from research.writing.citations import Evidence
from research.writing.criteria import Criterion, EventRule, RegionRule, TechRule, rule_for
from research.writing.icp import judge
from research.writing.places import place_countries
from research.writing.presence import PresenceRule
from research.writing.statements import StatementRule

AS_OF = datetime.date(2026, 12, 1)


def verdict(description: str, *texts: str) -> str:
    evidence = [
        Evidence(chunk_id=f"c{i}", doc_id=f"d{i}", title="Halvorix profile", source=f"f{i}.txt", text=text, rank=i)
        for i, text in enumerate(texts)
    ]
    return judge(Criterion(name=description[:30], description=description), "Halvorix", evidence, as_of=AS_OF).verdict


@pytest.mark.parametrize(
    ("description", "rule"),
    [
        ("Has an office in Germany", PresenceRule("Germany", frozenset({"germany"}), outside=False, offices_only=True)),
        (
            "Has offices or customers outside France",
            PresenceRule("France", frozenset({"france"}), outside=True, offices_only=False),
        ),
        (
            "Présence hors de France (bureau ou clients à l'étranger)",
            PresenceRule("France", frozenset({"france"}), outside=True, offices_only=False),
        ),
        (
            "Operates in the DACH region",
            PresenceRule("DACH", frozenset({"germany", "austria", "switzerland"}), False, False),
        ),
        ("Headquartered in the DACH region", RegionRule("DACH", frozenset({"germany", "austria", "switzerland"}))),
        ("Headquartered in the Benelux", RegionRule("Benelux", frozenset({"belgium", "netherlands", "luxembourg"}))),
        ("Hébergé sur AWS", TechRule("AWS")),
        ("Hosts its platform on Microsoft Azure", TechRule("Microsoft Azure")),
        ("Uses ServiceNow internally", TechRule("ServiceNow")),
        ("Sells mainly through channel partners (resellers, MSPs)", ChannelRule()),
        ("Offers a free trial", StatementRule(("free", "trial"))),
    ],
)
def test_criteria_are_read_as_a_sales_team_means_them(description: str, rule: object) -> None:
    assert rule_for(Criterion(name=description[:30], description=description)) == rule


def test_a_presence_is_an_office_or_customers_in_a_country_not_the_headquarters() -> None:
    outside = "Has offices or customers outside France"
    assert verdict(outside, "Halvorix, based in Lyon, opened an office in Madrid in 2026.") == "match"
    assert verdict(outside, "Halvorix sells to clinics abroad as well.") == "match"
    assert verdict(outside, "Halvorix is headquartered in Lyon, France.") == "unknown"
    assert verdict(outside, "Halvorix sells only in France for now.") == "no_match"
    office = "Has an office in Germany"
    assert verdict(office, "Halvorix has customers in Germany.") == "unknown"  # customers are not an office
    assert verdict(office, "Halvorix opened a Berlin office in May.") == "match"
    assert verdict(office, "Halvorix's head office is in Paris, with a team in Munich.") == "match"


def test_a_tool_moved_off_is_not_used_and_an_integration_is_not_use() -> None:
    crm = "Uses Salesforce as its CRM"
    assert verdict(crm, "Halvorix moved its sales team off Salesforce to HubSpot in March 2026.") == "no_match"
    assert verdict(crm, "Halvorix replaced HubSpot with Salesforce last year.") == "match"
    assert verdict(crm, "Halvorix integrates with Salesforce and HubSpot.") == "unknown"
    assert verdict(crm, "Halvorix offers a Salesforce connector.") == "unknown"
    # a change of tools decides before a plain mention, wherever it stands
    assert verdict(crm, "Halvorix uses Salesforce for its pipeline.", "Halvorix migrated away from Salesforce.") == (
        "no_match"
    )
    assert verdict("Hébergé sur AWS", "La plateforme Halvorix est hébergée sur AWS (région Paris).") == "match"
    assert verdict("Hébergé sur AWS", "Halvorix a quitté AWS pour OVHcloud en 2026.") == "no_match"
    assert verdict("Hébergé sur AWS", "Halvorix n'utilise plus AWS depuis 2025.") == "no_match"


def test_a_statement_criterion_with_one_generic_word_needs_its_object_too() -> None:
    assert rule_for(Criterion(name="Lab", description="Has a lab in Lisbon")) == StatementRule(("lab", "lisbon"))
    assert rule_for(Criterion(name="Lab", description="Has a research lab in Lisbon")) == StatementRule(
        ("research", "lab")  # two key words before the preposition are enough
    )
    assert verdict("Has a lab in Lisbon", "Halvorix runs a lab in Berlin.") == "unknown"
    channel = "Sells mainly through channel partners (resellers, MSPs)"
    assert verdict(channel, "Halvorix sells through channel partners in the UK.") == "match"
    assert verdict(channel, "Halvorix has no channel partners: every deal is direct.") == "no_match"
    assert verdict(channel, "Halvorix resells GPUs.") == "unknown"  # an example in parentheses is not a key


def test_every_country_a_text_names() -> None:
    text = "We opened offices in Madrid and Munich, and serve customers in the United Kingdom and Canada."
    assert place_countries(text) == {"spain", "germany", "united kingdom", "canada"}
    assert place_countries("the heart of berlin") == set()  # not capitalised as a name


def test_people_let_go_are_not_the_headcount() -> None:
    size = "Between 100 and 500 employees"
    assert verdict(size, "CORK, Feb 11 2026 - Halvorix is to let 19 employees go at its Cork assembly line.") == (
        "unknown"
    )
    assert verdict(size, "Halvorix va se séparer de 28 salariés à Lyon.") == "unknown"
    assert verdict(size, "Halvorix has 164 employees.") == "match"


def test_a_new_executive_who_started_or_took_over_and_no_verdict_from_a_heading() -> None:
    executive = "Appointed a new executive in the last 12 months"
    mail = (
        "1) New CFO. Priya Nolan started at Halvorix on 1 September 2026 as chief financial officer, taking over "
        "from Declan Furlow."
    )
    assert verdict(executive, mail) == "match"
    assert verdict(executive, "Halvorix: Léa Morin succède à Paul Roux à la présidence en octobre 2026.") == "match"
    assert verdict(executive, "New CFO.") == "unknown"  # too short to quote: it backs nothing


def test_a_day_and_month_without_a_year_are_of_the_documents_year() -> None:
    executive = "Appointed a new C-level executive in the last 12 months"
    mail = Evidence(
        chunk_id="m#0",
        doc_id="m",
        title="Halvorix - new CFO",
        source="mail.eml",
        date="2026-09-08T16:05:41+01:00",
        text="Priya Nolan started at Halvorix on 1 September as chief financial officer, taking over from Declan "
        "Furlow, who had been their CFO since 2019.",
    )
    judged = judge(Criterion(name="New executive", description=executive), "Halvorix", [mail], as_of=AS_OF)
    assert judged.verdict == "match"
    assert verdict("Uses Salesforce as its CRM", "They said Halvorix moved their whole sales team off Salesforce.") == (
        "no_match"
    )


def test_a_partners_certificate_is_not_the_companys() -> None:
    iso = "Certification ISO 27001"
    partner = "Halvorix Pay s'appuie sur Banque Ardelis, établissement de paiement certifié PCI DSS et ISO 27001."
    assert verdict(iso, partner) == "unknown"
    assert verdict(iso, "Halvorix a obtenu la certification ISO 27001 en 2025, comme Banque Ardelis.") == "match"


def test_how_a_company_sells_through_a_channel_or_only_direct() -> None:
    channel = "Sells through resellers or distributors (channel partners), not only through its own sales team"
    assert rule_for(Criterion(name="Channel", description=channel)) == ChannelRule()
    assert rule_for(Criterion(name="Direct", description="Sells direct only, not through resellers")) == (
        ChannelRule(direct=True)
    )
    french = "Vend au moins en partie par un réseau de revendeurs ou de partenaires de distribution"
    assert verdict(
        french, "Près de 40 % des installations Halvorix passent par un réseau de 35 revendeurs agréés."
    ) == ("match")
    assert verdict(channel, "Halvorix: every deal goes through their own account managers, also in NL.") == "no_match"
    assert verdict(channel, "Halvorix does not sell through resellers.") == "no_match"
    assert verdict(channel, "Halvorix sells through 120 approved resellers in Europe.") == "match"
    assert verdict("Sells direct only, not through resellers", "Halvorix sells through 120 resellers.") == "no_match"
    assert verdict(channel, "Halvorix has 120 employees.") == "unknown"


def test_alternatives_and_hedges_in_a_criterion() -> None:
    assert rule_for(Criterion(name="ISO", description="Holds its own ISO/IEC 27001 certification")) == StatementRule(
        ("iso|iec", "27001", "certification")
    )
    assert rule_for(Criterion(name="Trial", description="Offers a free trial of its product")) == StatementRule(
        ("free", "trial")
    )
    assert verdict("Holds its own ISO/IEC 27001 certification", "Halvorix holds ISO 27001 certification.") == "match"
    nordic = "Headquartered in Denmark, Sweden, Norway, Finland or Iceland"
    assert rule_for(Criterion(name="Nordic", description=nordic)) == RegionRule(
        "Denmark or Finland or Iceland or Norway or Sweden",
        frozenset({"denmark", "finland", "iceland", "norway", "sweden"}),
    )
    assert verdict(nordic, "Halvorix is headquartered in Oslo.") == "match"
    assert rule_for(Criterion(name="CRM", description="Runs HubSpot as its CRM")) == TechRule("HubSpot")


def test_a_newer_page_decides_a_statement_the_archive_contradicts_and_a_question_states_nothing() -> None:
    def page(text: str, date: str, index: int) -> Evidence:
        return Evidence(
            chunk_id=f"p{index}",
            doc_id=f"p{index}",
            title="Tarifs",
            source=f"halvorix-{index}.html",
            text=text,
            date=date,
        )

    trial = Criterion(name="Essai", description="Propose un essai gratuit de son logiciel")
    current = page("Nous ne proposons pas d'essai gratuit : chaque compte commence par une démo.", "2026-10-01", 1)
    archive = page("Essayez Halvorix avec un essai gratuit pendant 14 jours.", "2025-01-15", 2)
    question = page("Peut-on avoir un essai gratuit de Halvorix ?", "2026-10-01", 3)
    judged = judge(trial, "Halvorix", [archive, current, question], as_of=AS_OF)
    assert (judged.verdict, judged.citations[0].chunk_id) == ("no_match", "p1")
    assert judge(
        trial,
        "Halvorix",
        [archive, page("Halvorix propose un essai gratuit de 30 jours.", "2026-10-01", 4), current],
        as_of=AS_OF,
    ).verdict == (
        "unknown"  # two pages of the same day disagree: nothing decided
    )
    assert (
        verdict("Propose un essai gratuit", "Halvorix : plus d'essai gratuit depuis la nouvelle grille.") == "no_match"
    )
    assert verdict("Propose un essai gratuit", "Halvorix : plus de 600 essais gratuits ouverts en 2026.") == "match"


def test_a_team_out_of_the_whole_is_not_the_headcount() -> None:
    size = "Entre 150 et 1 000 salariés"
    assert verdict(size, "Halvorix : la R&D fait à peu près 90 personnes sur les 240.") == "match"
    assert verdict("Between 100 and 500 employees", "Halvorix's engineers are 50 of the 164 people there.") == "match"


def test_readings_that_must_not_fire() -> None:
    from research.writing.amounts import price_line
    from research.writing.channel import channel_rule, through_channel
    from research.writing.statements import stated, stated_in

    assert not price_line("Tavelnor raises $12M Series A")
    assert not price_line("DKK 81 million / 410 employees")
    trial = StatementRule(("free", "trial"))
    assert stated(trial, "Tavelnor won an award for its free trial.") is True  # "won" is a verb
    assert stated(trial, "Tavelnor won't offer a free trial.") is False
    assert stated_in(trial, ["It offers a free trial.", "It has no free trial."]) is None  # no dates: undecided
    assert channel_rule("Indirect tax compliance software") is None
    assert channel_rule("Direct sales only") == ChannelRule(direct=True)
    assert channel_rule("Sells through resellers, not through marketplaces") == ChannelRule()
    assert through_channel("We sell 100% direct.") is False
    assert through_channel("It sells via its own online channel.") is None
    assert verdict("Has an office in Germany", "Halvorix closed its Berlin office in 2025.") == "unknown"
    assert verdict("Between 100 and 500 employees", "Halvorix has 120 employees of its 2 subsidiaries.") == "match"
    ours = "Halvorix's platform holds ISO 27001 certification."
    assert verdict("Holds ISO 27001 certification", ours) == "match"  # a possessive is still its name


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("AUSTIN, Texas, April 14, 2026 - Halvorix today announced that it has acquired ClaimHarbor, Inc.", "match"),
        ("Halvorix's ClaimHarbor acquisition closed on 10 April 2026.", "match"),
        ("Halvorix a racheté l'éditeur nantais Papyrelle le 2 mars 2026.", "match"),
        ("Halvorix acquired Tollgate in March 2024.", "no_match"),  # before the window
        ("Halvorix was acquired by Brightbite on 3 May 2026.", "unknown"),  # bought, not buying
        ("Halvorix acquired 40 new customers in June 2026.", "unknown"),
        ("Halvorix cut its customer acquisition cost by half in 2026.", "unknown"),
        ("Halvorix is in talks to acquire a Canadian rival, our AE heard on 6 November 2026.", "unknown"),
    ],
)
def test_an_acquisition_in_a_window_is_read_and_being_bought_or_winning_customers_is_not(
    sentence: str, expected: str
) -> None:
    criterion = "Acquired a company in the last 12 months"
    assert rule_for(Criterion(name=criterion, description=criterion)) == EventRule("acquisition", 365)
    assert verdict(criterion, sentence) == expected


def test_being_acquired_is_no_acquisition_criterion() -> None:
    rule = rule_for(Criterion(name="Was acquired by a larger group", description="Was acquired by a larger group"))
    assert not isinstance(rule, EventRule)


def test_the_place_tables_load_once_by_the_warm_up() -> None:
    from research.platform.warmup import load_places
    from research.writing import places

    places._states.cache_clear()
    places.places.cache_clear()
    load_places()
    assert places._states.cache_info().currsize == 1
    assert places.places.cache_info().currsize == 1
    assert places.state_of("Nantes", "france") == "pays de la loire"
    assert places._states.cache_info().misses == 1  # read once: the judge's call found it loaded
