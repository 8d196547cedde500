"""The ICP judge on the eighteenth round of fresh corpora (the report benchmark's marina-berths-hr, mining-safety-cl
and creches-fr, measured before any rule was tuned on them): a rival's figures in a clause of their own; "are not
its revenue"; customers, a reseller or an office somewhere is presence; a year is no count; people an offer is for
are no headcount, nor workers who wear a tag; a rounded figure beside an exact one; a vendors' table read as one
line; our own clause in our notes; a city one letter from the company's name is no look-alike."""

from __future__ import annotations

import datetime

import pytest

from research.corpora.internal import internal_guess
from research.retrieval.parsing import ParsedDocument
from research.writing.citations import Evidence
from research.writing.criteria import Criterion, NumericRule, rule_for
from research.writing.figures import counts_in, figures_in
from research.writing.icp import judge
from research.writing.names import known_as
from research.writing.presence import PresenceRule
from research.writing.statements import word_forms
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)
HEADCOUNT = Criterion("150-500 zaposlenika", "Between 150 and 500 people on the payroll today")


def test_a_rivals_figures_in_a_clause_of_their_own_are_theirs() -> None:
    article = [
        *one_document(
            "Bitta Software S.r.l. closed an EUR 18 million Series B on 20 October 2026; Bitta counts 330 marinas, 240 "
            "employees and revenue of EUR 16.5 million in 2025, against Bokobran's EUR 9.4 million.",
            doc="nautika-news",
        ),
        *one_document("Today we are 126 employees: 88 in Split and 24 in Zagreb.", doc="bokobran-karijere"),
    ]
    verdict = judge(HEADCOUNT, "Bokobran Software d.o.o.", article, as_of=AS_OF)
    assert verdict.verdict == "no_match"
    assert "126" in verdict.citations[0].quote
    # Bitta's EUR 16.5 million is not Bokobran's revenue ("against Bokobran's EUR 9.4 million" names no revenue
    # word of its own: nothing decides)
    revenue = Criterion("Revenue above EUR 10 million", "Annual revenue above EUR 10 million")
    assert judge(revenue, "Bokobran Software d.o.o.", article[:1], as_of=AS_OF).verdict == "unknown"


def test_a_rivals_news_that_opens_with_its_rival_and_an_article_is_theirs() -> None:
    rival = (
        "Son principal concurrent, le lillois Gribouille Systèmes, revendique de son côté 2 000 établissements, 210 "
        "salariés et 13,5 M€ de chiffre d'affaires ; il dit déjà compter des crèches en Belgique."
    )
    abroad = Criterion("Clients en Belgique", "A des clients en Belgique")
    assert judge(abroad, "Nidoline SAS", one_document(rival, title="Nidoline"), as_of=AS_OF).verdict == "unknown"
    size = Criterion("Entre 100 et 150 salariés", "Emploie entre 100 et 150 salariés")
    assert judge(size, "Nidoline SAS", one_document(rival, title="Nidoline"), as_of=AS_OF).verdict == "unknown"


def test_what_a_criterion_says_is_not_its_revenue_does_not_make_it_ask_for_arr() -> None:
    revenue = Criterion(
        "Prihod above € 8 milijuna",
        "Annual revenue (prihod) above EUR 8 million; ARR, berth fees, money raised or a rival's revenue are not its "
        "revenue",
    )
    assert rule_for(revenue) == NumericRule("revenue", 8e6, None, "EUR", above=True)


def test_customers_a_reseller_or_an_office_somewhere_is_presence_there() -> None:
    australia = Criterion(
        "Already selling in Australia",
        "Has customers, a reseller or distributor, or its own sales office in Australia today; a vacancy in Perth "
        "doesn't count",
    )
    rule = rule_for(australia)
    assert isinstance(rule, PresenceRule)
    assert rule.countries == frozenset({"australia"})
    denied = (
        "Vetalerta sells only in Chile, Peru and, through a distributor, Bolivia; it has no customers in Australia."
    )
    assert judge(australia, "Vetalerta Tecnologías SpA", one_document(denied), as_of=AS_OF).verdict == "no_match"
    # a channel there stays a channel criterion
    resellers = Criterion("Reseller channel in Germany", "Resellers or sales partners sell its LIMS to labs in Germany")
    assert not isinstance(rule_for(resellers), PresenceRule)


def test_a_year_is_no_count_and_people_an_offer_is_for_are_no_headcount() -> None:
    pilot = "In the pilot, from January to April 2026, Minera Los Cóndores fitted nine refuge chambers."
    assert counts_in(pilot, frozenset({"mines"}), word_forms) == []
    assert counts_in("Today 38 mines and 1200 mines more", frozenset({"mines"}), word_forms) == [38.0, 1200.0]
    assert figures_in("Vetalerta's price is 15% under our offer for 1,150 people.", "employees") == []
    assert figures_in("16,200 workers tagged; 18,600 workers wear our tag every shift.", "employees") == []
    assert figures_in("Vetalerta has 164 people.", "employees") == [164.0]


def test_a_rounded_figure_yields_to_an_exact_one_near_it() -> None:
    size = Criterion("Entre 100 et 150 salariés", "Emploie aujourd'hui entre 100 et 150 salariés")
    evidence = [
        *one_document("Nidoline, qui emploie quelque 160 salariés, a réalisé 9 M€ en 2025.", doc="article"),
        *one_document(
            "Au 1er octobre 2026, nous sommes 143 salariés : 96 au siège de Tours.", doc="nidoline-carrieres"
        ),
    ]
    verdict = judge(size, "Nidoline SAS", evidence, as_of=AS_OF)
    assert verdict.verdict == "match"
    assert "143" in verdict.citations[0].quote
    # an office's exact count is far from the whole's rounded one: the whole's stands
    office = one_document("Nidoline emploie environ 160 salariés.", "Le bureau de Montréal compte 4 salariés.")
    assert judge(size, "Nidoline SAS", office, as_of=AS_OF).verdict == "no_match"


TABLE = (
    "Vendor | Revenue 2025 | ARR | Hosting | ISO/IEC 27001 | Markets Shaftwise USD 58.0M USD 41.5M AWS (Sydney, São "
    "Paulo)since 2020 AU, CA, CL, PE Radiomin USD 26.1M USD 9.4M own data centre (Santiago)none CL, PE, AR Vetalerta "
    "USD 14.6M USD 8.3M Azure (Brazil South)audit planned CL, PE, BO"
)


def test_a_vendors_table_read_as_one_line_gives_the_companys_row_alone() -> None:
    revenue = Criterion("Ventas above US$ 20 millones", "Annual revenue above US$ 20 million")
    # its row without the header names no revenue: the table decides nothing (Radiomin's USD 26.1M is not its)
    assert judge(revenue, "Vetalerta Tecnologías SpA", one_document(TABLE), as_of=AS_OF).verdict == "unknown"
    size = Criterion("Over 100 staff", "More than 100 employees")
    staff_table = (
        "Vendor | HQ | Staff | Customers | Cloud Shaftwise | Perth | 410 employees | 95 Radiomin | Santiago | 260 "
        "employees | 40 Vetalerta | Antofagasta | 164 employees | 38"
    )
    verdict = judge(size, "Vetalerta Tecnologías SpA", one_document(staff_table), as_of=AS_OF)
    assert verdict.verdict == "match"
    assert verdict.citations[0].quote == "Vetalerta | Antofagasta | 164 employees | 38"
    australia = Criterion("Customers in Australia", "Has customers in Australia")
    assert judge(australia, "Vetalerta Tecnologías SpA", one_document(TABLE), as_of=AS_OF).verdict == "unknown"


def test_a_clause_about_us_in_our_notes_is_ours() -> None:
    note = Evidence(
        "notes#0",
        "notes",
        "Opportunity notes: Quebrada Honda",
        "notas-oportunidad.docx",
        "Support: Vetalerta has a service team in Antofagasta; our second-level support is in Perth, Australia.",
        internal=True,
    )
    australia = Criterion("Customers or an office in Australia", "Has customers or its own office in Australia")
    assert judge(australia, "Vetalerta Tecnologías SpA", [note], as_of=AS_OF).verdict == "unknown"


def test_opportunity_notes_are_ours() -> None:
    parsed = ParsedDocument(
        source_name="notas-oportunidad-quebrada-honda-2026-11.docx",
        title="Opportunity notes: Compañía Minera Quebrada Honda S.A.",
        text="Budget: UF 4.000 a year.",
        doc_key="notas-oportunidad",
        metadata={},
        kind="docx",
    )
    assert internal_guess(parsed)


@pytest.mark.parametrize("city", ["Paris", "Lyon"])
def test_a_city_one_letter_from_the_companys_name_is_no_lookalike(city: str) -> None:
    company = known_as("Parvis Numérique SAS", one_document(f"La plateforme Parvis est hébergée à {city}."))
    assert company.lookalikes == ()


def test_a_count_of_accented_nouns_is_read_as_the_criterion_folds_them() -> None:
    count = Criterion("Plus de 1 500 établissements clients", "Plus de 1 500 établissements utilisent le logiciel")
    sentence = "1 480 établissements d'accueil du jeune enfant travaillent avec Nidoline."
    verdict = judge(count, "Nidoline SAS", one_document(sentence), as_of=AS_OF)
    assert (verdict.verdict, verdict.reason.split()[0]) == ("no_match", "1,480")


def test_the_whole_a_part_is_counted_in_is_no_count_of_it() -> None:
    told = "Their presales engineer told me 27 of the 38 are underground mines; the rest are open pits."
    assert counts_in(told, frozenset({"mines"}), word_forms) == []
    assert counts_in("38 faenas, 27 underground mines among them.", frozenset({"mines"}), word_forms) == [27.0]


def test_what_they_told_us_in_our_notes_is_still_theirs() -> None:
    note = Evidence(
        "notes#0",
        "notes",
        "Deal notes: Quebrada Honda",
        "deal-notes.docx",
        "Vetalerta has a sales team in Santiago; they told us they opened an office in Perth, Australia in May.",
        internal=True,
    )
    australia = Criterion("Customers or an office in Australia", "Has customers or its own office in Australia")
    assert judge(australia, "Vetalerta Tecnologías SpA", [note], as_of=AS_OF).verdict == "match"
