"""The ICP judge on criteria and sentences as three more teams wrote them (the report benchmark's insurtech-claims-it,
paie-interim-ch and edtech-lms-se corpora, measured before any rule was tuned on them): both bounds of a size said
apart, a head office in a country or a region, a window that starts on a named day, a C-suite change, numbers in
words (Swiss French too), an office's or a subsidiary's people beside the whole company's, a CRM row whose headers
are capitalised, a question asked, what would be, a denial after the key words, and a criterion's name as its
phrase."""

from __future__ import annotations

import datetime

import pytest

from research.reporting.kinds.icp import criterion_facet
from research.writing.channel import through_channel
from research.writing.citations import Evidence
from research.writing.criteria import Criterion, EventRule, NumericRule, RegionRule, rule_for
from research.writing.figures import figures_in
from research.writing.icp import judge
from research.writing.presence import presence_rule, presence_stated
from research.writing.statements import stated, stated_in, statement_rule
from research.writing.structure import fields_of

AS_OF = datetime.date(2026, 11, 30)


def _evidence(index: int, text: str, *, title: str = "Stimalba profile", source: str = "", date: str | None = None):
    return Evidence(
        chunk_id=f"c{index}#0",
        doc_id=f"c{index}",
        title=title,
        source=source or f"f{index}.txt",
        text=text,
        date=date,
        rank=index,
    )


def verdict(name: str, description: str, *texts: str | Evidence) -> str:
    evidence = [text if isinstance(text, Evidence) else _evidence(i, text) for i, text in enumerate(texts)]
    return judge(Criterion(name=name, description=description), "Stimalba S.r.l.", evidence, as_of=AS_OF).verdict


@pytest.mark.parametrize(
    ("name", "description", "rule"),
    [
        (
            "Headcount 80-400",
            "Big enough to have a real install base (80 people or more), small enough that a tie-up with us moves "
            "the needle for them (under 400 people)",
            NumericRule("employees", 80.0, 400.0, below=True),  # "under 400" excludes 400; "80 or more" keeps 80
        ),
        (
            "Head office in Italy or Iberia",
            "Head office (not just a sales desk or a subsidiary) in Italy, Spain or Portugal",
            RegionRule("Italy or Portugal or Spain", frozenset({"italy", "spain", "portugal"})),
        ),
        (
            "Fresh money",
            "Banked a priced equity round since 1 December 2025; talks, rumours and plans don't count",
            EventRule("funding", 365, since=datetime.date(2025, 12, 1)),
        ),
        (
            "New C-suite",
            "Changed its CEO, CFO, COO, CTO or CRO in the last 12 months; VPs and country managers don't count",
            EventRule("executive", 365),
        ),
        (
            "Nouveau dirigeant",
            "Nouveau membre de la direction (DG, DAF, directeur technique) arrivé dans les 12 derniers mois",
            EventRule("executive", 365),
        ),
    ],
)
def test_criteria_in_a_sales_teams_words(name: str, description: str, rule: object) -> None:
    assert rule_for(Criterion(name=name, description=description)) == rule


def test_a_region_and_a_country_named_together_are_one_rule() -> None:
    rule = rule_for(Criterion(name="HQ", description="Head office in Italy or Iberia"))
    assert rule == RegionRule("Italy or Iberia", frozenset({"italy", "spain", "portugal"}))


def test_numbers_in_words_count_and_people_hired_or_another_size_do_not() -> None:
    assert figures_in("Aujourd'hui, c'est une équipe de septante-deux collaborateurs, à Neuchâtel.", "employees") == [
        72.0
    ]
    assert figures_in("We have forty-five people in Leeds.", "employees") == [45.0]
    assert figures_in("Depuis mars, Missival a engagé quatorze personnes.", "employees") == []
    assert figures_in("Nous avons embauché 12 personnes cette année.", "employees") == []
    # a customer's size, not the company's
    assert figures_in("It moves up-market towards 2,500 to 5,000 employee organisations.", "employees") == []


def test_the_whole_company_outnumbers_its_office_and_its_subsidiary() -> None:
    size = "80 people or more, under 400 people"
    office = "The Oslo office of Stimalba starts with six people."
    arm = "Stimalba Iberia S.L., the Spanish arm of Stimalba, now has 31 staff in Spain."
    whole = "Stimalba has about 150 employees and counts 45 insurers as clients."
    assert verdict("Size", size, office, arm, whole) == "match"
    assert verdict("Size", size, office, arm) == "no_match"


def test_a_feed_items_own_date_makes_its_old_headcount_stale() -> None:
    old = _evidence(0, "Stimalba has 31 employees and 70 clients.", date="2021-05-18")
    new = _evidence(1, "Today Stimalba is a team of 187 people.", date="2026-10-01")
    assert verdict("Size", "Between 100 and 400 people", old, new) == "match"


def test_a_window_from_a_named_day() -> None:
    funding = "Banked a priced equity round since 1 December 2025"
    assert verdict("Money", funding, "On 19 May 2026 Stimalba raised EUR 22 million in a Series B round.") == "match"
    assert verdict("Money", funding, "In June 2025 Stimalba raised EUR 8 million in a Series A round.") == "no_match"


def test_an_investor_who_joined_is_no_executive_and_a_cfo_who_takes_the_position_is() -> None:
    executive = "Brought in a new C-suite executive (CEO, CFO, COO) in the last 12 months"
    investor = "On 14 April 2026, Baltyk Ventures joined as a new investor in Stimalba's Series B."
    cfo = (
        "Bologna, 1 July 2026 - Stimalba announces that Halina Wrobel will take the position of Chief Financial "
        "Officer (CFO) from 1 August 2026."
    )
    assert verdict("C-level", executive, investor) == "unknown"
    assert verdict("C-level", executive, investor, cfo) == "match"


def test_they_in_a_note_about_the_company_and_a_labelled_line_on_its_own_page() -> None:
    mail = _evidence(
        0,
        "CTO: big news at the booth, they have a new CTO since 1 September, Hampus Ekdahl.",
        title="LearnExpo Nordic - my notes on Stimalba",
        source="mail.eml",
        date="2026-10-12",
    )
    assert verdict("New C-level", "A new CEO or CTO started in the last 12 months", mail) == "match"
    home = _evidence(
        1,
        "Our offices\nHeadquarters: Via del Battiferro 9, 40129 Bologna, Italy\n"
        "Madrid: Stimalba Iberia S.L., Paseo de la Castellana 141, 28046 Madrid, for the clients in Spain.",
        title="Every claim in one place",
        source="stimalba-home.html",
    )
    assert verdict("HQ", "Head office in Italy, Spain or Portugal", home) == "match"
    address = _evidence(2, "Headquarters: ul. Hubska 44, 50-502 Wroclaw, Poland", source="stimalba-contact.html")
    assert verdict("HQ", "Head office in Italy, Spain or Portugal", address) == "no_match"


def test_a_crm_row_with_capitalised_headers_is_its_accounts_row() -> None:
    row = (
        "Account: Mutua Cantabrica de Seguros\nCity: Santander\nEmployees: 640\n"
        "Claims system today: In-house (COBOL) + Stimalba Occhio PoC\nCloud / stack: IBM z/OS; AWS\n"
        "Notes: Final two vs Stimalba."
    )
    assert fields_of(row)["account"] == "Mutua Cantabrica de Seguros"
    assert fields_of(row)["claims_system_today"].startswith("In-house")
    crm = _evidence(0, row, title="crm-accounts-export row 1", source="crm-accounts-export.csv")
    assert verdict("On AWS", "Hosts its product on AWS today", crm) == "unknown"
    page = _evidence(
        1,
        "Everything runs on Google Cloud since the first day: we have no workloads on AWS or Azure.",
        title="Work with us",
        source="stimalba-careers.html",
    )
    assert verdict("On AWS", "Hosts its product on AWS today", crm, page) == "no_match"
    # a page with a few address lines among its prose is no record
    assert fields_of("Welcome to Stimalba.\nWe handle claims.\nMore text here.\nHQ: Bologna\nMadrid: office") == {}


def test_a_question_asked_and_what_would_be_state_nothing() -> None:
    iso = statement_rule("Holds a current ISO 27001 certificate")
    assert iso is not None
    assert stated_in(iso, ["Security: I asked two times about ISO 27001 certificate."]) is None
    france = statement_rule("Paie France en production")
    assert france is not None
    hypothetical = "Pour les agences françaises, la paie France resterait chez leur prestataire en production."
    assert stated_in(france, [hypothetical]) is None


def test_a_denial_after_the_key_words_and_a_records_field_names() -> None:
    france = statement_rule("Paie France en production")
    assert france is not None
    assert stated(france, "Paie France : leur module DSN n'est pas en production ; en France, ils gardent") is False
    trial = statement_rule("Free trial")
    assert trial is not None
    assert stated(trial, "A free trial is not available.") is False
    assert stated(trial, "We offer a free trial, not a freemium plan.") is True
    assert stated(trial, "No, we do not give a free trial: a claims system needs your real flows.") is False
    paie = statement_rule("Produit déjà la paie des intérimaires en France")
    assert paie is not None
    assert "deja" not in paie.keys
    assert stated(paie, "avis_id: NL-4471 produit: Missival Paie editeur: Missival note: 4.5") is None
    schools = statement_rule("Also sells to primary or compulsory schools, not only to upper-secondary")
    assert schools is not None
    assert "also" not in schools.keys
    only = "No: we are built only for upper-secondary schools, and we have no plans for compulsory school."
    assert stated(schools, only) is False


def test_a_criterions_name_decides_as_a_phrase_when_its_description_cannot() -> None:
    trial = "Lets a prospect use the product for free before signing (a self-serve trial or a free pilot)"
    assert verdict("Free trial", trial, "No, we do not give a free trial: it needs your real flows.") == "no_match"
    # the name's words apart are not the criterion
    production = "Produit déjà la paie des intérimaires en France"
    apart = "Stimalba vend un logiciel de paie aux agences de France et de Suisse."
    assert verdict("Paie France en production", production, apart) == "unknown"


def test_none_there_denies_a_presence_and_a_distributor_is_a_channel() -> None:
    rule = presence_rule("Has customers or an office in the UK or Ireland today")
    assert rule is not None
    assert presence_stated(rule, "Stimalba has no customers in the United Kingdom or Ireland.") is False
    assert presence_stated(rule, "Stimalba closed its Dublin office in 2025.") is None
    assert presence_stated(rule, "Stimalba has customers in Ireland.") is True
    assert through_channel("Missival est distribué en Haute-Savoie par le cabinet comptable Fidurom.") is True


def test_a_french_corpus_searches_a_criterion_in_french_too() -> None:
    siege = criterion_facet(0, Criterion("Siège", "Siège social en Suisse romande (Genève, Vaud)"), "Missival SA")
    assert "siège" in siege.ask("Missival SA", "fr")
    assert "siège" not in siege.ask("Missival SA", "en")
    statement = criterion_facet(1, Criterion("ISO 27001", "Certifié ISO 27001"), "Missival SA")
    assert statement.ask("Missival SA", "fr") == statement.ask("Missival SA", "en")


def test_profit_is_its_own_words_and_a_rivals_news_decides_nothing() -> None:
    profit = statement_rule("Profitable (positive EBITDA or net profit) in its last reported year")
    assert profit is not None
    assert profit.profit
    assert stated(profit, "Ceramira is not profitable: EBITDA was EUR -1.9 m in 2025.") is False
    assert stated(profit, "Les adhérents profitent de 15 % de remise sur leur première année.") is None
    assert stated(profit, "Ceramira has been profitable since 2024.") is True
    c5 = "Holds its own BSI C5 attestation"
    rival = "Hamburg's Lotsenhaus Software, a competitor of Stimalba, has received a BSI C5 Type 2 attestation."
    assert verdict("BSI C5", c5, rival) == "unknown"


def test_a_hosting_criterion_is_denied_by_another_cloud_and_met_without_the_named_ones() -> None:
    ovh = "Sa plateforme tourne chez OVHcloud, comme la nôtre"
    scaleway = _evidence(
        1,
        "Notre stack : Python et Go, Kafka, le tout sur Kubernetes chez Scaleway, à Paris.",
        source="stimalba-jobs.html",
    )
    assert verdict("Hébergé chez OVHcloud", ovh, scaleway) == "no_match"
    sovereign = "Runs its platform without AWS, Microsoft Azure or Google Cloud (a European cloud)"
    aws = "Everything at Stimalba runs on AWS in Frankfurt (eu-central-1)."
    assert verdict("Sovereign hosting", sovereign, aws) == "no_match"
    assert verdict("Sovereign hosting", sovereign, "Stimalba runs on Exoscale in Vienna and Zurich.") == "match"
    azure = "Hosts its product on Microsoft Azure today"
    assert verdict("Runs on Azure", azure, "We run Stimalba on AWS, and there is not one server of ours on Azure.") == (
        "no_match"
    )


def test_a_window_of_a_calendar_year_and_a_french_change_at_the_top() -> None:
    funding = rule_for(Criterion("VC money", "Closed a venture round during calendar 2026; earlier rounds don't count"))
    assert funding == EventRule("funding", 365, since=datetime.date(2026, 1, 1), until=datetime.date(2026, 12, 31))
    top = rule_for(Criterion("Direction", "Nouveau président, nouveau DG ou nouveau PDG arrivé depuis moins d'un an"))
    assert top == EventRule("executive", 365)
    mail = "Hélène Castanier a pris la direction générale de Stimalba le 1er octobre 2026."
    assert verdict("Direction", "Nouveau DG arrivé depuis moins d'un an", mail) == "match"
    based = "São Paulo-based Cerrado Partners joined the round, as did Minho Angels Network."
    seat = _evidence(1, "Sede: Rua Nova de Santa Cruz 48, 4710-409 Braga, Portugal", source="stimalba-home.html")
    assert verdict("HQ", "Head office in Portugal or Spain", based) == "unknown"
    assert verdict("HQ", "Head office in Portugal or Spain", based, seat) == "match"


def test_a_crew_colleagues_and_a_size_band() -> None:
    assert figures_in("Today Ceramira is a crew of seventy-one: ceramists and developers.", "employees") == [71.0]
    assert figures_in("Right now our 118 colleagues work in Graz, Munich and Zurich.", "employees") == [118.0]
    assert figures_in("Nous sommes désormais quatre-vingt-dix, entre Montpellier et Milan.", "employees") == [90.0]
    assert figures_in("It sells to regulated banks with 50 to 1,000 employees.", "employees") == []
