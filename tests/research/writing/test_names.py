"""A company known by its names: the legal name typed, its short name and domain as its documents use them, its
look-alikes never taken for it; and whose voice a document is."""

from __future__ import annotations

import pytest

from research.writing.citations import Evidence
from research.writing.names import Company, known_as, names_notes, own_voice


def evidence(text: str, *, title: str = "", source: str = "notes.md", publisher: str = "") -> Evidence:
    return Evidence("c1", "d1", title, source, text, publisher=publisher)


SITE = evidence(
    "We are a team of 265 people. Tjalkwerf Checkout takes cards and iDEAL. Visit tjalkwerf.example today.",
    title="Payments for online merchants",
    source="home.html",
    publisher="Tjalkwerf Payments B.V; tjalkwerf.example",
)
DIGEST = evidence(
    "Tjalkwerk Pay GmbH opened in Düsseldorf with 45 staff. Tjalkwerf Energy Ltd builds wind farms.",
    title="Regional digest",
)


def test_the_typed_legal_name_gives_its_short_names_and_domain() -> None:
    company = known_as("Tjalkwerf Payments B.V.", [SITE, DIGEST])
    assert {"tjalkwerf payments b v", "tjalkwerf payments", "tjalkwerf"} <= set(company.names)
    assert company.named_in("Tjalkwerf raised EUR 72m.")
    assert company.named_in("Write to sales@tjalkwerf.example")
    assert company.named_in("Tjalkwerf's Series C closed.")  # a possessive is the company, not a look-alike


@pytest.mark.parametrize(
    "text",
    [
        "Tjalkwerk Pay GmbH opened in Düsseldorf with 45 staff.",  # one letter off
        "Tjalkwerf Energy builds wind farms.",  # the same first word, a legal form of its own elsewhere
    ],
)
def test_a_lookalike_is_never_the_company(text: str) -> None:
    company = known_as("Tjalkwerf Payments B.V.", [SITE, DIGEST])
    assert not company.named_in(text)
    assert not company.about(text, DIGEST)


def test_a_product_name_that_opens_with_the_short_name_is_the_company() -> None:
    company = known_as("Tjalkwerf Payments B.V.", [SITE, DIGEST])
    assert company.named_in("Tjalkwerf Checkout now supports Bancontact.")
    assert "tjalkwerf checkout" not in company.lookalikes


def test_its_products_are_the_names_its_documents_write_after_its_name() -> None:
    company = known_as("Tjalkwerf Payments B.V.", [SITE, DIGEST])
    assert company.products == ("checkout",)  # not "Energy", a look-alike's, nor "Payments", its own name's
    assert company.about_a_product("The Checkout takes cards and iDEAL.")
    assert company.about_a_product("Tjalkwerf Checkout now supports Bancontact.")
    assert not company.about_a_product("Tjalkwerf raised EUR 72m.")
    rows = evidence("account: Albufera\nincumbent: Lucarne\nNext step: demo\nLUCARNE SETS UP SHOP. Lucarne Pro: 1,60 €")
    assert known_as("Lucarne Logiciels inc.", [rows]).products == ("pro",)  # no "Next", no headline's "SETS"


def test_the_company_speaks_in_its_own_pages_not_in_an_article_about_it() -> None:
    company = known_as("Tjalkwerf Payments B.V.", [SITE])
    assert company.speaks_in(SITE)
    assert company.about("We are a team of 265 people.", SITE)
    assert company.about("EUR 0.29 per iDEAL transaction.", SITE)  # impersonal, in its own voice
    article = evidence(
        "We expect more consolidation.", title="Tjalkwerf raises EUR 72m", publisher="Fintech Lowlands Media B.V"
    )
    assert not company.speaks_in(article)
    assert not company.about("We expect more consolidation.", article)


@pytest.mark.parametrize(
    "text",
    [
        "\u201cWe moved our checkout in a weekend,\u201d said Femke Altena of Grachtenfiets.",  # someone else's words
        "At Stellique she led the storage team.",  # about a person
        "Money in your account tomorrow",  # a title line
    ],
)
def test_not_every_sentence_of_its_own_page_speaks_for_it(text: str) -> None:
    company = known_as("Tjalkwerf Payments B.V.", [SITE])
    assert not company.about(text, SITE)


@pytest.mark.parametrize(
    ("text", "previous"),
    [
        ("The Utrecht-based payments firm said it would hire 60 engineers.", "Tjalkwerf raised EUR 72m."),
        ("La société compte 240 salariés.", "Praxelune SAS lève 18 M EUR."),
    ],
)
def test_a_sentence_that_refers_back_is_about_the_company_named_before(text: str, previous: str) -> None:
    company = Company.plain("Tjalkwerf Payments B.V.") if "Tjalkwerf" in previous else Company.plain("Praxelune SAS")
    article = evidence(f"{previous} {text}", title="News")
    assert company.about(text, article, previous)
    assert not company.about(text, article, "The market grew.")


def test_the_legal_name_of_a_short_name_typed_is_no_lookalike() -> None:
    page = evidence("Stellique Data GmbH, Berlin. Stellique Energy Ltd is a utility.", title="Imprint")
    company = known_as("Stellique", [page])
    assert company.named_in("Stellique Data GmbH released Stellique 3.0.")
    assert company.lookalikes == ("stellique energy",)


def test_the_names_note_writes_names_as_the_subject_and_the_documents_do() -> None:
    company = Company(
        "Tjalkwerf Payments B.V.", ("tjalkwerf payments b v", "tjalkwerf"), ("tjalkwerk pay", "tjalkwerk terminal")
    )
    notes = names_notes(
        company,
        ["TJALKWERK PAY DIGEST, July 2026", "Tjalkwerk Pay GmbH rents terminals; the Tjalkwerk Terminal is cheap."],
    )  # a masthead in capitals is not how the name is written
    assert notes == [
        'Read as Tjalkwerf Payments B.V.: "Tjalkwerf Payments B.V.", "Tjalkwerf". '
        'Not the same company: "Tjalkwerk Pay", "Tjalkwerk Terminal".'
    ]


def test_the_names_note_gives_the_products_and_says_nothing_when_the_name_typed_is_all() -> None:
    texts = ["Halvorix Serverless is available today.", "Halvorix Halyard ships in 2026."]
    assert names_notes(Company("Halvorix", ("halvorix",)), texts) == []
    with_products = Company("Halvorix", ("halvorix",), products=("serverless", "halyard"))
    assert names_notes(with_products, texts) == ['Read as Halvorix: "Halvorix"; its products: "Serverless", "Halyard".']


def test_a_lookalikes_short_forms_and_own_pages_are_never_the_company() -> None:
    consultancy = evidence(
        "Marejada Hostelería Consultores S.L. is a hotel consultancy in Alicante. We closed 2025 in profit.",
        title="Marejada Consultores: people who run hotels",
        source="marejada-consultores-services.html",
    )
    article = evidence("Marejada raised EUR 21 million for its hotel pricing software.", title="Travel tech")
    company = known_as("Marejada Revenue Technologies S.L.", [consultancy, article])
    assert "marejada consultores" in company.lookalikes
    assert not company.named_in("Marejada Consultores helps hotels.")
    assert company.named_in("Marejada Pulse sets room rates.")
    assert not company.speaks_in(consultancy)
    assert not company.about("We closed 2025 in profit.", consultancy)


def test_a_subsidiary_named_as_one_is_the_company_not_a_look_alike() -> None:
    arm = [evidence("Stimalba Iberia S.L., the Spanish arm of Stimalba, opened in Madrid.")]
    assert known_as("Stimalba S.r.l.", arm).named_in("Stimalba Iberia S.L. opened in Madrid.")
    owned = [evidence("Kwadrolog opened its Czech subsidiary Kwadrolog CZ s.r.o. in Brno.")]
    assert not known_as("Kwadrolog sp. z o.o.", owned).lookalikes
    said_once = [  # named a subsidiary once, it is one wherever else it stands
        evidence("Kaikaro Software Limited, with Australian subsidiary Kaikaro Pty Ltd in Brisbane, raised NZ$28m."),
        evidence("In Australia the Clinic plan is A$95, invoiced by Kaikaro Pty Ltd. UK practices pay £52."),
        evidence("Nos clients français sont servis par sa filiale française Lucarne France SAS."),
    ]
    assert not known_as("Kaikaro Software Limited", said_once[:2]).lookalikes
    assert not known_as("Lucarne Logiciels inc.", said_once[2:]).lookalikes
    other = [evidence("Stimalva S.r.l., a Padua valuation firm, is not Stimalba. Stimalba Energia S.p.A. sells power.")]
    assert "stimalba energia" in known_as("Stimalba S.r.l.", other).lookalikes


def test_they_refers_back_to_the_company_outside_a_quotation() -> None:
    note = evidence("x", title="LearnExpo - my notes on Tentavik", source="mail.eml")
    company = known_as("Tentavik AB", [note])
    assert company.about("CTO: big news at the booth, they have a new CTO since 1 September.", note, "Hi team,")
    quoted = (
        '"What they have asked for next is a way to put those answers in front of everyone," said Leona Brightwell.'
    )
    assert not company.about(quoted, note, "Hi team,")


def test_a_person_the_company_says_joined_us_is_its_own_voice() -> None:
    assert own_voice("Rohit Iyer joined us as Chief Revenue Officer in July, from Kreta Labs, where he ran sales.")
    assert not own_voice("She said we are the best vendor she has used.")
    assert not own_voice("He ran enterprise sales at Kreta Labs for six years.")
