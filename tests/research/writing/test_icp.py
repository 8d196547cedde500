"""The offline ICP judge: numeric ranges, regions, technology and events in a window decided from sentences
about the company only, each verdict with the quote that decides it; anything else unknown."""

from __future__ import annotations

import datetime

import pytest

from research.writing.citations import Evidence
from research.writing.criteria import Criterion, EventRule, NumericRule, RegionRule, TechRule, rule_for
from research.writing.dates import date_span
from research.writing.icp import coverage, fit_score, judge
from research.writing.places import place_country
from research.writing.statements import StatementRule

AS_OF = datetime.date(2026, 12, 1)


def evidence(*texts: str, title: str = "Halvorix profile", date: str | None = None) -> list[Evidence]:
    return [
        Evidence(chunk_id=f"c{i}", doc_id=f"d{i}", title=title, source=f"f{i}.txt", text=text, date=date, rank=i)
        for i, text in enumerate(texts)
    ]


@pytest.mark.parametrize(
    ("description", "rule"),
    [
        ("Between 50 and 500 employees", NumericRule("employees", 50, 500)),
        ("50-500 employees", NumericRule("employees", 50, 500)),
        ("More than 1,000 staff", NumericRule("employees", 1000, None, above=True)),
        ("Revenue above $10M", NumericRule("revenue", 10e6, None, "USD", above=True)),
        ("Annual revenue between $5 and $50 million", NumericRule("revenue", 5e6, 50e6, "USD")),
        ("Fewer than 200 people", NumericRule("employees", None, 200, below=True)),
        ("Raised money in the last 12 months", EventRule("funding", 365)),
        ("Hiring in the past 6 months", EventRule("hiring", 182)),
        ("Launched a product in the last 90 days", EventRule("launch", 90)),
        ("Runs on Kubernetes", TechRule("Kubernetes")),
        ("Uses Snowflake for analytics", TechRule("Snowflake")),
    ],
)
def test_criteria_are_read_from_plain_language(description: str, rule: object) -> None:
    assert rule_for(Criterion(description, description)) == rule


def test_regions_are_read_with_their_countries() -> None:
    rule = rule_for(Criterion("EU", "Headquartered in the EU"))
    assert isinstance(rule, RegionRule)
    assert rule.region == "the EU"
    assert "france" in rule.countries
    assert "united kingdom" not in rule.countries
    # any other criterion is one a sentence may state or deny outright
    assert rule_for(Criterion("Say", "Has a friendly logo")) == StatementRule(("friendly", "logo"))


def test_place_names_map_to_countries() -> None:
    assert place_country("Lyon, France") == "france"
    assert place_country("the heart of Berlin") == "germany"
    assert place_country("London") == "united kingdom"
    assert place_country("Kent Town, Adelaide") == "australia"  # GeoNames' cities, not a hand list
    assert place_country("Nantes") == "france"
    assert place_country("Quellbraeville") is None  # (Atlantis is a town in South Africa)


def test_a_numeric_range_is_decided_with_its_quote() -> None:
    found = evidence("Halvorix employs about 120 people across two offices.", "Stellique has 900 employees.")
    judged = judge(Criterion("Size", "Between 50 and 500 employees"), "Halvorix", found, as_of=AS_OF)
    assert judged.verdict == "match"
    assert "120 employees" in judged.reason
    assert judged.citations[0].quote == "Halvorix employs about 120 people across two offices."
    too_small = judge(Criterion("Size", "More than 1,000 employees"), "Halvorix", found, as_of=AS_OF)
    assert too_small.verdict == "no_match"


def test_another_companys_number_is_never_this_ones() -> None:
    found = evidence("Stellique has 900 employees.", title="Stellique profile")
    judged = judge(Criterion("Size", "Between 50 and 500 employees"), "Halvorix", found, as_of=AS_OF)
    assert judged.verdict == "unknown"
    assert judged.citations == ()


def test_revenue_in_millions() -> None:
    found = evidence("Halvorix reported revenue of $42 million in 2025.")
    judged = judge(Criterion("Revenue", "Revenue above $10M"), "Halvorix", found, as_of=AS_OF)
    assert judged.verdict == "match"


def test_the_headquarters_region() -> None:
    found = evidence("Halvorix is headquartered in Lyon, France.")
    assert judge(Criterion("EU", "Headquartered in the EU"), "Halvorix", found, as_of=AS_OF).verdict == "match"
    usa = judge(Criterion("NA", "Based in North America"), "Halvorix", found, as_of=AS_OF)
    assert usa.verdict == "no_match"
    assert "France" in usa.reason


def test_technology_in_use_and_not() -> None:
    uses = evidence("Halvorix runs its search on Kubernetes in three regions.")
    assert judge(Criterion("K8s", "Runs on Kubernetes"), "Halvorix", uses, as_of=AS_OF).verdict == "match"
    left = evidence("Halvorix moved away from Kubernetes in 2024.")
    assert judge(Criterion("K8s", "Runs on Kubernetes"), "Halvorix", left, as_of=AS_OF).verdict == "no_match"
    silent = evidence("Halvorix sells search software.")
    assert judge(Criterion("K8s", "Runs on Kubernetes"), "Halvorix", silent, as_of=AS_OF).verdict == "unknown"


def test_an_event_in_a_window_from_the_sentence_or_the_documents_date() -> None:
    criterion = Criterion("Funding", "Raised money in the last 12 months")
    recent = evidence("Halvorix raised 30 million dollars in a Series B round in March 2026.")
    assert judge(criterion, "Halvorix", recent, as_of=AS_OF).verdict == "match"
    old = evidence("Halvorix raised a seed round in June 2023.")
    judged = judge(criterion, "Halvorix", old, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert "2023-06" in judged.reason
    dated = evidence("Halvorix closed its Series A round.", date="2026-09-14")
    assert judge(criterion, "Halvorix", dated, as_of=AS_OF).verdict == "match"
    undated = evidence("Halvorix closed its Series A round.")
    assert judge(criterion, "Halvorix", undated, as_of=AS_OF).verdict == "unknown"


def test_a_rivals_round_is_not_the_companys() -> None:
    criterion = Criterion("Funding", "Raised money in the last 12 months")
    found = evidence(
        "Solvaro Pricing GmbH, the Vienna rival that fights Halvorix for Italian hotels, closed a EUR 9 million round "
        "in October 2026.",
        "Halvorix raised a seed round in June 2023.",
    )
    judged = judge(criterion, "Halvorix", found, as_of=AS_OF)
    assert judged.verdict == "no_match"
    assert judged.citations[0].chunk_id == "c1"


def test_dates_are_spans() -> None:
    assert date_span("in March 2026") == (datetime.date(2026, 3, 1), datetime.date(2026, 3, 31))
    assert date_span("on 2026-09-14") == (datetime.date(2026, 9, 14),) * 2
    assert date_span("March 4, 2026") == (datetime.date(2026, 3, 4),) * 2
    assert date_span("in 2024") == (datetime.date(2024, 1, 1), datetime.date(2024, 12, 31))
    assert date_span("no date here") is None


def test_an_undecidable_criterion_is_unknown_and_says_why() -> None:
    judged = judge(Criterion("Vibe", "Has a friendly culture"), "Halvorix", evidence("Halvorix is nice."), as_of=AS_OF)
    assert judged.verdict == "unknown"
    assert "language-model" in judged.reason


def test_fit_score_weighs_the_decided_criteria_and_coverage_counts_them() -> None:
    found = evidence("Halvorix employs 120 people.", "Halvorix is headquartered in Toronto, Canada.")
    criteria = [
        Criterion("Size", "Between 50 and 500 employees", weight=3),
        Criterion("EU", "Headquartered in the EU", weight=1),
        Criterion("K8s", "Runs on Kubernetes", weight=2),
    ]
    judged = [judge(c, "Halvorix", found, as_of=AS_OF) for c in criteria]
    assert [j.verdict for j in judged] == ["match", "no_match", "unknown"]
    assert fit_score(judged) == pytest.approx(0.75)
    assert coverage(judged) == pytest.approx(2 / 3)
    assert fit_score([j for j in judged if j.verdict == "unknown"]) is None


def test_a_record_row_is_read_by_its_fields() -> None:
    row = (
        "account_id: ACC-1042\naccount_name: Kilnbrook Logistics\nemployees: 2400\nhq_city: Rotterdam\n"
        "hq_country: Netherlands\ntech_stack: Tavelnor Lakehouse; Kubernetes\narr_band: $100k-$250k\n"
        "notes: Inbound May 2026. Referred by 12 partners."
    )
    found = evidence(row, title="crm-accounts-export row 7")
    size = judge(Criterion("Size", "Between 500 and 20,000 employees"), "Kilnbrook Logistics", found, as_of=AS_OF)
    assert size.verdict == "match"
    assert "2,400 employees" in size.reason
    region = judge(Criterion("EMEA", "Headquartered in EMEA"), "Kilnbrook Logistics", found, as_of=AS_OF)
    assert region.verdict == "match"
    assert "Netherlands" in region.reason
    revenue = judge(Criterion("Revenue", "Revenue above $10M"), "Kilnbrook Logistics", found, as_of=AS_OF)
    assert revenue.verdict == "unknown"  # a band is not a revenue figure, and the notes' numbers are not either
    assert judge(Criterion("K8s", "Runs on Kubernetes"), "Kilnbrook Logistics", found, as_of=AS_OF).verdict == "match"


SIZE = Criterion("Size", "Between 200 and 2,000 employees")
EU = Criterion("EU", "Headquartered in the European Union")


@pytest.mark.parametrize(
    "text",
    [
        "In February Tjalkwerf laid off 38 employees in Utrecht.",
        "Tjalkwerf plans to hire 60 engineers by 2027.",
        "Ledgerwisp's 22 employees join Tjalkwerf in Vilnius.",
        "Tjalkwerf sells to employers with 25 to 2,500 staff.",
        "More than 1,200 employers pay over 310,000 people through Tjalkwerf.",
        "Tjalkwerf took on 45 people in the first six months of 2026.",
        "Les 14 salariés de Kinélogue rejoignent Tjalkwerf à Rennes.",
        "Chez Tjalkwerf, les PME de 20 à 500 salariés font 60 % du chiffre d'affaires.",
    ],
)
def test_people_laid_off_hired_or_someone_else_s_are_not_the_headcount(text: str) -> None:
    judged = judge(SIZE, "Tjalkwerf Payments B.V.", evidence(text, title="News"), as_of=AS_OF)
    assert judged.verdict == "unknown", judged.reason


def test_the_headcount_beside_a_layoff_decides() -> None:
    found = evidence("Tjalkwerf laid off 38 employees. Today Tjalkwerf is a team of 265 people.", title="News")
    assert judge(SIZE, "Tjalkwerf Payments B.V.", found, as_of=AS_OF).verdict == "match"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Tjalkwerf is opening a sales office in Madrid.", "unknown"),  # an office, not the headquarters
        ("Tjalkwerf acquired Shiftmarrow Ltd, the Lisbon-based maker of rota software.", "unknown"),  # another's
        ("UTRECHT - Utrecht-based payments company Tjalkwerf has raised EUR 72m.", "match"),
        ("Tjalkwerf a son siège social à Lyon.", "match"),
    ],
)
def test_headquarters_are_not_an_office_or_another_company_s_city(text: str, verdict: str) -> None:
    assert judge(EU, "Tjalkwerf Payments B.V.", evidence(text, title="News"), as_of=AS_OF).verdict == verdict


def test_a_crm_row_decides_only_for_the_company_its_name_column_names() -> None:
    rows = evidence(
        "account: Grachtenfiets B.V.\ncity: Amsterdam\ncountry: NL\nemployees: 85\ncurrent_psp: Tjalkwerf",
        "account: Tjalkwerk Pay GmbH\ncity: Dusseldorf\nemployees: 45\nsegment: SMB",
        title="crm export",
    )
    assert judge(SIZE, "Tjalkwerf Payments B.V.", rows, as_of=AS_OF).verdict == "unknown"
    own = evidence("account: Tjalkwerf Payments B.V.\ncity: Utrecht\nemployees: 265", title="crm export")
    assert judge(SIZE, "Tjalkwerf Payments B.V.", rows + own, as_of=AS_OF).verdict == "match"


@pytest.mark.parametrize(
    ("description", "rule"),
    [
        ("Entre 50 et 200 salariés", NumericRule("employees", 50, 200)),
        ("Plus de 1 200 salariés", NumericRule("employees", 1200, None, above=True)),
        ("Annual revenue above AUD 50 million", NumericRule("revenue", 50e6, None, "AUD", above=True)),
        ("Siège social en France", RegionRule("France", frozenset({"france"}))),
        ("A levé des fonds au cours des 12 derniers mois", EventRule("funding", 365)),
        ("A nommé un nouveau dirigeant au cours des 12 derniers mois", EventRule("executive", 365)),
        ("No layoffs in the last 12 months", EventRule("layoffs", 365, absent=True)),
    ],
)
def test_french_criteria_currency_codes_and_absences_are_read(description: str, rule: object) -> None:
    assert rule_for(Criterion("c", description)) == rule


def test_french_sentences_decide() -> None:
    found = evidence(
        "Praxelune compte 240 salariés à Nantes.",
        "Nantes, 14 avril 2026 - Praxelune a levé 18 millions d'euros.",
        "Praxelune a son siège social à Nantes.",
        title="Praxelune",
    )
    company = "Praxelune SAS"
    assert judge(Criterion("t", "Entre 50 et 200 salariés"), company, found, as_of=AS_OF).verdict == "no_match"
    funding = Criterion("f", "A levé des fonds au cours des 12 derniers mois")
    assert judge(funding, company, found, as_of=AS_OF).verdict == "match"
    assert judge(Criterion("s", "Siège social en France"), company, found, as_of=AS_OF).verdict == "match"


def test_no_layoffs_is_no_match_after_a_layoff_in_the_window_and_unknown_otherwise() -> None:
    criterion = Criterion("Layoffs", "No layoffs in the last 12 months")
    recent = evidence("In February 2026 Thistlewick laid off 35 people.", title="Thistlewick")
    assert judge(criterion, "Thistlewick", recent, as_of=AS_OF).verdict == "no_match"
    old = evidence("In 2019 Thistlewick laid off 35 people.", title="Thistlewick")
    assert judge(criterion, "Thistlewick", old, as_of=AS_OF).verdict == "unknown"


def test_an_executive_hire_and_a_revenue_without_a_verb_are_read() -> None:
    found = evidence(
        "Quellbrae announced a new technology chief. Lachlan Ferrowby has joined them as Chief Technology Officer.",
        "Quellbrae annual recurring revenue, FY2026 (to 30 June) AUD 14.2 million.",
        title="Quellbrae has a new CTO",
        date="2026-08-24",
    )
    executive = Criterion("Exec", "Appointed a new executive in the last 12 months")
    assert judge(executive, "Quellbrae AgSystems Pty Ltd", found, as_of=AS_OF).verdict == "match"
    arr = Criterion("ARR", "Annual recurring revenue above AUD 10 million")
    assert judge(arr, "Quellbrae AgSystems Pty Ltd", found, as_of=AS_OF).verdict == "match"
    # recurring revenue alone does not decide a revenue criterion: it may stand above revenue ("ARR passed EUR 31.2
    # million" beside revenue of EUR 28.5 million) or below it
    revenue = Criterion("Revenue", "Annual revenue above AUD 50 million")
    assert judge(revenue, "Quellbrae AgSystems Pty Ltd", found, as_of=AS_OF).verdict == "unknown"


@pytest.mark.parametrize(
    ("description", "sentence", "verdict"),
    [
        ("Offers in-person card terminals for physical shops", "They have no in-person card terminals.", "no_match"),
        ("Offers in-person card terminals for physical shops", "Halvorix rents in-person card terminals.", "match"),
        ("The company is profitable", "Halvorix grew 36% but the company remains loss-making.", "no_match"),
        ("The company is profitable", "Halvorix has been profitable since 2024.", "match"),
        ("The company is profitable", "Halvorix is not yet profitable.", "no_match"),
        ("Certifié ISO 27001", "Halvorix est certifiée ISO 27001 depuis 2025.", "match"),
        ("Données hébergées en France chez un hébergeur HDS", "Halvorix : données hébergées en France (HDS).", "match"),
        ("Holds an ISO 27001 certification", "Halvorix holds a SOC 2 Type II report.", "unknown"),  # never mentioned
    ],
)
def test_a_criterion_a_sentence_states_or_denies_is_decided_by_it(
    description: str, sentence: str, verdict: str
) -> None:
    judged = judge(Criterion("C", description), "Halvorix", evidence(sentence), as_of=AS_OF)
    assert judged.verdict == verdict
    assert bool(judged.citations) == (verdict != "unknown")


def test_sentences_that_disagree_on_a_statement_decide_nothing() -> None:
    found = evidence("Halvorix has been profitable since 2024.", "Halvorix is loss-making, says Cairnmoor.")
    assert judge(Criterion("P", "The company is profitable"), "Halvorix", found, as_of=AS_OF).verdict == "unknown"


@pytest.mark.parametrize(
    "text",
    [
        "Our 264-strong team at Tjalkwerf works from Utrecht.",
        "There are 264 of us at Tjalkwerf now.",
        "Tjalkwerf took on 45 people this year, taking its team past 300.",
    ],
)
def test_a_headcount_in_other_words_decides(text: str) -> None:
    judged = judge(SIZE, "Tjalkwerf Payments B.V.", evidence(text, title="News"), as_of=AS_OF)
    assert judged.verdict == "match", judged.reason


def test_a_figure_from_a_document_older_than_a_year_loses_to_a_current_one() -> None:
    old = evidence("The start-up Tjalkwerf has 48 employees.", title="News", date="2023-11-21")
    current = evidence("There are 264 of us at Tjalkwerf today.", title="Careers")
    judged = judge(SIZE, "Tjalkwerf Payments B.V.", [*old, *current], as_of=AS_OF)
    assert (judged.verdict, judged.citations[0].quote) == ("match", "There are 264 of us at Tjalkwerf today.")


def test_a_technology_is_known_by_its_initials_and_read_without_a_time_word() -> None:
    gcp = Criterion("Google Cloud shop", "Runs its platform on Google Cloud Platform today")
    assert rule_for(gcp) == TechRule("Google Cloud Platform")
    left = evidence("In 2024 Halvorix moved the whole platform off GCP and onto AWS.")
    assert judge(gcp, "Halvorix", left, as_of=AS_OF).verdict == "no_match"


@pytest.mark.parametrize(
    ("sentence", "verdict"),
    [
        # another company opens the sentence: its profit, not Halvorix's
        ("Sentinaire se dit rentable depuis 2025, ce que Halvorix ne peut pas encore revendiquer.", "unknown"),
        # the company referred back to after an analyst's name
        ("Cairnmoor expects growth, but the company remains loss-making.", "no_match"),
        # a question reported, or a heading, states nothing
        ("I asked whether Halvorix is profitable; the rep did not know.", "unknown"),
        ("## Win/loss vs Halvorix, 2026 YTD (ours)", "unknown"),
    ],
)
def test_who_a_statement_is_about_and_what_states_nothing(sentence: str, verdict: str) -> None:
    judged = judge(Criterion("P", "The company is profitable"), "Halvorix", evidence(sentence), as_of=AS_OF)
    assert judged.verdict == verdict, judged.reason


def test_a_statement_only_a_page_archived_over_a_year_ago_makes_decides_nothing() -> None:
    trial = Criterion("Trial", "Offers a free trial")
    archived = evidence(
        "Try Halvorix free for 14 days, no card needed: Halvorix offers a free trial.", date="2025-01-15"
    )
    assert judge(trial, "Halvorix", archived, as_of=AS_OF).verdict == "unknown"
    current = evidence("Halvorix offers a free trial of 14 days.", date="2026-10-01")
    assert judge(trial, "Halvorix", current, as_of=AS_OF).verdict == "match"
