"""The ICP judge on the fifteenth round of fresh corpora (the report benchmark's auto-ecole-fr, parking-ops-jp and
brewery-erp-cz, measured before any rule was tuned on them): dates written year first ("2025/12/01") or with dots
and spaces ("7. 10. 2026"), "le 6 novembre dernier" told in January, a round "paid in" on its day, a bank's
commitment line is no round; an office in a French région, one to be opened; what a sentence dates after today is
not so today, "est en cours", "still owes"; generic and possessive words are no key words, an acronym of the
criterion's name is one; who a company sells to; "oku yen" and "mil. Kč"; a look-alike's lower-case "s.r.o."."""

from __future__ import annotations

import datetime

import pytest

from research.writing.amounts import currency_in
from research.writing.buyers import BuyerRule
from research.writing.criteria import Criterion, EventRule, NumericRule, rule_for
from research.writing.dates import date_span
from research.writing.figures import revenue_figures
from research.writing.icp import judge
from research.writing.names import known_as
from research.writing.presence import PresenceRule
from research.writing.residency import HostingRule
from research.writing.statements import StatementRule
from research.writing.text import sentences
from tests.research.writing.conftest import one_document

AS_OF = datetime.date(2026, 11, 30)
FUNDING = Criterion("New equity in the last 12 months", "Closed an equity round between 2025/12/01 and 2026/11/30")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("between 2025/12/01 and 2026/11/30", datetime.date(2025, 12, 1)),
        ("paid on 2026.10.07", datetime.date(2026, 10, 7)),
        ("opened on 7. 10. 2026 in Nürnberg", datetime.date(2026, 10, 7)),
        ("on 20.11.2025 and on 2025/01/03", datetime.date(2025, 11, 20)),  # the first date written
    ],
)
def test_dates_written_year_first_or_with_dots_and_spaces(text: str, day: datetime.date) -> None:
    assert date_span(text) == (day, day)


def test_a_window_written_year_first() -> None:
    assert rule_for(FUNDING) == EventRule(
        "funding", 365, since=datetime.date(2025, 12, 1), until=datetime.date(2026, 11, 30)
    )


def test_a_day_told_without_its_year_after_the_article_is_of_the_year_before_when_it_is_done() -> None:
    article = one_document(
        "Clignolia annonce une série B de 18 millions d'euros. Le tour de table de Clignolia a en réalité été signé "
        "le 6 novembre dernier.",
        date="2026-01-13",
    )
    verdict = judge(FUNDING, "Clignolia SAS", article, as_of=AS_OF)
    assert verdict.verdict == "no_match"
    assert "2025-11" in verdict.reason
    # what is to come keeps the article's year: "joins as CTO on 1 September", told in August
    executive = Criterion("New executive", "Hired a new C-level executive in the last 12 months")
    mail = one_document(
        "Tjalkwerf announced that Idris Vanterpool joins them as CTO on 1 September.", date="2026-08-20"
    )
    assert judge(executive, "Tjalkwerf Payments B.V.", mail, as_of=AS_OF).verdict == "match"


def test_a_round_paid_in_on_its_day_and_a_bank_facility_is_no_round() -> None:
    article = one_document(
        "Tomarigi Systems has raised 2.4 billion yen in a Series C led by Aoba Growth Partners. The new shares were "
        "paid in on November 28, 2025, but the company disclosed the round only in January.",
        date="2026-01-20",
    )
    assert judge(FUNDING, "Tomarigi Systems Co., Ltd.", article, as_of=AS_OF).verdict == "no_match"
    loan = one_document(
        "Hirose Bank has set up a 1.5 billion yen commitment line for Tomarigi Systems to finance LPR camera units; "
        "it is a bank facility, not an equity investment.",
        date="2026-08-26",
    )
    assert judge(FUNDING, "Tomarigi Systems Co., Ltd.", loan, as_of=AS_OF).verdict == "unknown"


AGENCY = Criterion(
    "Agence en Auvergne-Rhône-Alpes",
    "A aujourd'hui une agence ou un bureau ouvert en région Auvergne-Rhône-Alpes ; une ouverture prévue ou le siège "
    "d'un concurrent ne comptent pas",
)


def test_an_office_in_a_french_region_and_one_to_be_opened_there() -> None:
    rule = rule_for(AGENCY)
    assert isinstance(rule, PresenceRule)
    assert rule.state == "auvergne rhone alpes"
    namur = "En septembre 2023, nous avons ouvert notre agence commerciale de Namur pour suivre la Wallonie."
    to_open = "Clignolia ouvrira une agence à Lyon au printemps 2027 ; d'ici là, ses clients sont suivis depuis Lille."
    assert judge(AGENCY, "Clignolia SAS", one_document(namur), as_of=AS_OF).verdict == "unknown"
    assert judge(AGENCY, "Clignolia SAS", one_document(namur, to_open), as_of=AS_OF).verdict == "no_match"
    for planned in (
        "Clignolia ouvre une agence à Lyon au printemps.",
        "L'argent levé par Clignolia doit financer l'ouverture d'une agence à Lyon.",
    ):
        assert judge(AGENCY, "Clignolia SAS", one_document(planned), as_of=AS_OF).verdict == "no_match"
    opened = "Clignolia a une agence à Grenoble depuis 2024."
    assert judge(AGENCY, "Clignolia SAS", one_document(opened), as_of=AS_OF).verdict == "match"
    # an office elsewhere in France is not in the region
    assert judge(AGENCY, "Clignolia SAS", one_document("Clignolia a une agence à Nantes."), as_of=AS_OF).verdict == (
        "unknown"
    )


ISMS = Criterion("ISMS (ISO/IEC 27001) certified", "Holds a valid ISMS (ISO/IEC 27001) certificate today")


@pytest.mark.parametrize(
    "sentence",
    [
        "Tomarigi Systems has its ISMS (ISO/IEC 27001) certification audit scheduled for January 2027, and expects "
        "the certificate by the end of March 2027.",
        "Tomarigi Systems' ISMS certification is on the way: the stage 2 audit was booked in October.",
        "Tomarigi Systems still owes its customers the ISMS certificate, which it first promised for 2025.",
    ],
)
def test_what_is_dated_after_today_or_still_under_way_is_not_held(sentence: str) -> None:
    assert judge(ISMS, "Tomarigi Systems Co., Ltd.", one_document(sentence), as_of=AS_OF).verdict == "no_match"


def test_a_plan_does_not_deny_what_another_sentence_says_is_held() -> None:
    held = one_document(
        "Tomarigi Systems holds an ISMS certificate since 2023.",
        "Its ISMS certificate renewal audit is scheduled for January 2027.",
    )
    assert judge(ISMS, "Tomarigi Systems Co., Ltd.", held, as_of=AS_OF).verdict == "match"
    # a criterion that asks for a plan is not denied by one
    plan = Criterion("Plans an ISMS audit", "Plans an ISMS audit")
    audit = one_document("Tomarigi Systems plans its ISMS audit for January 2027.")
    assert judge(plan, "Tomarigi Systems Co., Ltd.", audit, as_of=AS_OF).verdict != "no_match"


def test_a_certification_still_in_progress_is_denied() -> None:
    iso = Criterion("Certifiée ISO 27001", "Détient un certificat ISO/IEC 27001")
    sentence = (
        "Chez Palière, notre propre certification ISO/IEC 27001 est en cours : l'audit de phase 1 a eu lieu en octobre."
    )
    assert judge(iso, "Palière SA", one_document(sentence), as_of=AS_OF).verdict == "no_match"


def test_generic_and_possessive_words_are_no_key_words_and_an_acronym_of_the_name_is_one() -> None:
    cpf = Criterion("Gère les dossiers CPF", "Le logiciel gère aujourd'hui les dossiers CPF des élèves")
    assert rule_for(cpf) == StatementRule(("dossiers", "cpf"))
    denied = "La gestion des dossiers CPF n'est pas encore disponible dans Clignolia : elle arrivera en 2027."
    assert judge(cpf, "Clignolia SAS", one_document(denied), as_of=AS_OF).verdict == "no_match"
    rfid = Criterion("RFID keg tracking live", "Tracks customers' kegs with RFID tags in its product today")
    assert rule_for(rfid) == StatementRule(("tracks", "kegs", "rfid"))
    qr = "Keg tracking: every keg carries a QR label, the driver scans it at the pub, and Sladovít tracks kegs there."
    assert judge(rfid, "Sladovít Software a.s.", one_document(qr), as_of=AS_OF).verdict == "unknown"
    no_rfid = "Sladovít tracks kegs by QR code only; it reads no RFID tags."
    assert judge(rfid, "Sladovít Software a.s.", one_document(no_rfid), as_of=AS_OF).verdict == "no_match"


@pytest.mark.parametrize(
    ("company", "sentence"),
    [
        ("Tomarigi Systems Co., Ltd.", "Tomarigi sells only to businesses: parking operators, landowners, hospitals."),
        ("Clignolia SAS", "Clignolia ne vend qu'aux professionnels : auto-écoles indépendantes et réseaux."),
        ("Sladovít Software a.s.", "Sladovít is paid for by breweries and beverage distributors; its app is free."),
    ],
)
def test_who_a_company_sells_to(company: str, sentence: str) -> None:
    b2b = Criterion("Sells to businesses", "Its paying customers are businesses (breweries, distributors)")
    assert rule_for(b2b) == BuyerRule(business=True)
    assert judge(b2b, company, one_document(sentence), as_of=AS_OF).verdict == "match"


def test_a_consumer_pays_is_still_no_business() -> None:
    b2b = Criterion("Sells to businesses", "Its paying customers are businesses")
    sentence = "The app is paid for by consumers through the stores."
    assert judge(b2b, "Sladovít Software a.s.", one_document(sentence), as_of=AS_OF).verdict != "match"


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("Net sales (consolidated): 34.6 oku yen in FY2025, up from 27.9 oku yen.", [(34.6e8, "JPY")]),
        ("Tržby 2025: 138,6 mil. Kč, up from 109,2 mil. Kč in 2024.", [(138.6e6, "CZK")]),
        ("Sales: 12 stores", []),  # a label without an amount of money
    ],
)
def test_revenue_in_oku_yen_and_mil_kc(text: str, figures: list[tuple[float, str]]) -> None:
    assert revenue_figures(text) == figures


def test_local_currencies_and_a_revenue_criterion_in_yen() -> None:
    assert (currency_in("138,6 mil. Kč"), currency_in("2.4 billion yen"), currency_in("12 mln zł")) == (
        "CZK",
        "JPY",
        "PLN",
    )
    sales = Criterion("Net sales over ¥3 billion", "Consolidated net sales above ¥3 billion")
    assert rule_for(sales) == NumericRule("revenue", 3e9, None, "JPY", above=True)


def test_sentences_go_on_after_a_scale_a_title_and_a_dotted_day() -> None:
    text = (
        "Sladovít Agro signed a 22 mil. Kč bank loan on 7. 10. 2026 to build a line. The company has 240 employees "
        "and tržby of 1,9 mld. Kč in 2025. Ing. Radim Šebesta said so."
    )
    assert sentences(text) == [
        "Sladovít Agro signed a 22 mil. Kč bank loan on 7. 10. 2026 to build a line.",
        "The company has 240 employees and tržby of 1,9 mld. Kč in 2025.",
        "Ing. Radim Šebesta said so.",
    ]


def test_a_lookalike_with_a_legal_form_in_lower_case() -> None:
    note = one_document(
        "Sladovít Software a.s. is not related to Sladovít Agro s.r.o., of Prostějov, a maltster with about 240 staff.",
        "Today we are 86 zaměstnanců (employees) at Sladovít.",
    )
    assert "sladovit agro" in known_as("Sladovít Software a.s.", note).lookalikes
    staff = Criterion("More than 100 employees", "More than 100 employees today")
    assert judge(staff, "Sladovít Software a.s.", note, as_of=AS_OF).verdict == "no_match"


def test_criteria_that_keep_data_somewhere_and_what_does_not_move_a_head_office() -> None:
    hosting = Criterion("Customer data hosted in the EU", "Its cloud keeps customers' data in the European Union")
    assert isinstance(rule_for(hosting), HostingRule)
    head_office = Criterion(
        "Head office in Japan", "Head office in Japan; its Taipei Branch or a Singapore investor don't move it"
    )
    assert rule_for(head_office).countries == frozenset({"japan"})  # type: ignore[union-attr]
    siege = Criterion(
        "Siège en France",
        "Siège social en France ; une agence à l'étranger ou des clients en Belgique n'y changent rien",
    )
    assert rule_for(siege).countries == frozenset({"france"})  # type: ignore[union-attr]
