"""What the sixth round of fresh corpora showed the reports missed, each as the corpus wrote it: a product card and
a leadership card on a company's own page, rand and dirham prices, a careers page's own voice, an analyst's
labelled verdict; and the traps that must stay out ("try 14 days", "PHP 8", a line of wrapped prose)."""

from __future__ import annotations

import pytest

from research.writing import extractive
from research.writing.amounts import money, price_line, priced
from research.writing.extractive import candidates
from research.writing.names import Company, roster_line, unattributed
from research.writing.text import sentences
from tests.research.writing.conftest import evidence
from tests.research.writing.test_company import every_facet_finds


@pytest.mark.parametrize(
    "line",
    [
        "R549 excl. VAT per technician per month",
        "R1 299 excl. VAT per technician per month",
        "690 DH HT par poste et par mois",
        "S$8,900/mth",
        "RM2,400 per container per month",
        "₦50,000 per user per month",
    ],
)
def test_a_price_in_rand_dirham_dollar_ringgit_or_naira_is_a_price_line(line: str) -> None:
    assert price_line(line)


@pytest.mark.parametrize("text", ["try 14 days free", "PHP 8 developers wanted", "ALL 3 plans", "Room 12 is free"])
def test_words_that_spell_a_currency_code_are_no_amount(text: str) -> None:
    assert not money(text)
    assert not priced(text)


def test_a_product_card_under_its_name_is_a_products_claim_without_any_product_word() -> None:
    page = (
        "What we make\nHalvorix Certify\n"
        "Halvorix Certify fills in the electrical Certificate of Compliance from the job card, straight after the "
        "inspection.\nRiegel - NIS2\nRiegel leads your team through the NIS2 risk-management measures step by step."
    )
    site = evidence("home#0", page, title="Halvorix", source="halvorix-home.html")
    cards = evidence("cards#0", "Halvorix Riegel and Halvorix Certify, our two modules.", source="halvorix-news.html")
    sections = every_facet_finds(site, cards)
    assert page.split("\n")[2] in sections["products"]
    assert page.split("\n")[4] in sections["products"]


def test_a_leadership_card_is_a_claim_and_a_list_line_is_one() -> None:
    assert roster_line("Priscilla Wee, Chief Financial Officer, joined in July 2026 from Andaman Feeder Lines")
    assert roster_line("Karim Ait Lahcen, cofondateur et directeur technique")
    assert not roster_line("Halvorix Clinic, the appointment book")
    assert not roster_line("Tuas South, Singapore")
    page = (
        "L'équipe de direction\nReda Mernissi\n"
        "Directeur administratif et financier depuis mars 2026, auparavant directeur financier de Sud Répartition\n"
        "Nawal Chergui\nDirectrice commerciale et réseau de revendeurs, chez Halvorix depuis 2019\n"
    )
    found = [c.text for c in candidates([evidence("c#0", page, source="halvorix-carrieres.html")])]
    assert (
        "Reda Mernissi, Directeur administratif et financier depuis mars 2026, auparavant directeur financier de "
        "Sud Répartition"
    ) in found
    assert "Nawal Chergui, Directrice commerciale et réseau de revendeurs, chez Halvorix depuis 2019" in found
    careers = evidence(
        "careers#0",
        "Leadership\nPriscilla Wee, Chief Financial Officer, joined in July 2026 from Andaman Feeder Lines\n",
        source="halvorix-careers.html",
    )
    assert (
        "Priscilla Wee, Chief Financial Officer, joined in July 2026 from Andaman Feeder Lines"
        in (every_facet_finds(careers)["leadership"])
    )


def test_a_short_line_between_two_lines_is_a_heading_but_wrapped_prose_stays_one_sentence() -> None:
    cards = "Reda Mernissi\nDirecteur administratif et financier depuis mars 2026, auparavant chez Sud Répartition\n"
    cards += "Nawal Chergui\nDirectrice commerciale"
    assert sentences(cards)[1:3] == [
        "Directeur administratif et financier depuis mars 2026, auparavant chez Sud Répartition",
        "Nawal Chergui",
    ]
    wrapped = "The platform moved from Microsoft Azure to Amazon Web Services in the\nFrankfurt Region\nDuring 2024."
    assert sentences(wrapped)[0].endswith("Amazon Web Services in the Frankfurt Region")  # "the" goes on


def test_an_analysts_labelled_verdict_is_about_the_company_it_names() -> None:
    assert unattributed("What we like: FieldRate users rate Halvorix 4.5 out of 5.") == (
        "FieldRate users rate Halvorix 4.5 out of 5."
    )
    assert unattributed("Our rating for Halvorix: Strong Performer (depots), Contender (ports).") == (
        "Halvorix: Strong Performer (depots), Contender (ports)."
    )
    company = Company.plain("Halvorix")
    note = evidence("note#0", "What we like: FieldRate users rate Halvorix 4.5 out of 5.", title="Landscape 2026")
    assert company.about(note.text, note)


def test_the_companys_own_page_outranks_a_third_party_saying_as_much_of_what_it_sells(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    news = evidence("news#0", "Halvorix opened a sales office in Jakarta in 2025.", title="News", source="news.html")
    listing = evidence(
        "tender#0",
        "Halvorix hosting: the platform runs on AWS in Singapore with a PostgreSQL database.",
        title="Tender award notices",
        source="tender-notices.html",
    )
    own = evidence(
        "site#0",
        "Everything runs on Amazon EKS in AWS Singapore, and the backend is Kotlin with PostgreSQL.",
        title="Work with us",
        source="halvorix-careers.html",
    )
    assert every_facet_finds(news, listing, own)["technology"] == [own.text, listing.text]
    monkeypatch.setattr(extractive, "OWN_SOURCE", 1.0)  # found later by its search, it came second
    assert every_facet_finds(news, listing, own)["technology"] == [listing.text, own.text]


def test_a_job_ads_perks_stand_in_no_section() -> None:
    careers = evidence(
        "jobs#0",
        "Halvorix builds the vector database for regulated teams. Public transport ticket, sports and wellbeing "
        "budget, EUR 1,500 yearly learning budget. 30 days of paid holiday, plus 24 and 31 December. "
        "Six weeks of paid holiday and a 10% pension on top of salary.",
        title="Careers at Halvorix",
        source="halvorix-careers.html",
    )
    stated = [claim for claims in every_facet_finds(careers).values() for claim in claims]
    assert "Halvorix builds the vector database for regulated teams." in stated
    assert not [claim for claim in stated if "holiday" in claim or "budget" in claim]
