"""The competitor report: a section per facet, each claim placed in the one facet it fits, only claims about the
company."""

from __future__ import annotations

import pytest

from research.protocol.report import Citation, Claim
from research.retrieval.embedders.hashing import HashingEmbedder
from research.writing.citations import Evidence
from research.writing.company import COMPETITOR_FACETS as FACETS
from research.writing.company import PROSPECT_FACETS, FacetEvidence, company_report, facets_for
from research.writing.extractive import ExtractiveWriter
from research.writing.names import Company
from research.writing.writers import Brief, Draft
from tests.research.writing.conftest import evidence

PRICING = (
    evidence(
        "price#0",
        "Halvorix raised the Standard plan minimum to $900 a month on 1 June 2026. "
        "Stellique charges $700 a month for its Team plan.",
        title="Halvorix pricing",
        date="2026-06-01",
    ),
)
FUNDING = (evidence("fund#0", "It closed a $60 million Series C in 2025.", title="Halvorix press release"),)


def test_a_company_is_named_as_a_whole_word() -> None:
    company = Company.plain("Halvorix")
    assert company.named_in("Halvorix Serverless went GA.")
    assert Company.plain("halvorix").named_in("HALVORIX's pricing")
    assert not company.named_in("Halvorixa is another firm.")


def test_each_facet_states_what_fits_it_and_empty_facets_say_so() -> None:
    pricing, funding = FACETS[1], FACETS[2]
    report = company_report(
        "competitor",
        "Halvorix",
        [FacetEvidence(pricing, PRICING), FacetEvidence(funding, FUNDING), FacetEvidence(FACETS[4], ())],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    sections = {s.facet: s for s in report.sections}
    assert [c.text for c in sections["pricing"].claims] == [
        "Halvorix raised the Standard plan minimum to $900 a month on 1 June 2026."
    ]  # Stellique's price is in the same chunk, and is not Halvorix's
    assert [c.text for c in sections["funding"].claims] == ["It closed a $60 million Series C in 2025."]
    assert sections["customers"].not_found
    assert sections["customers"].claims == ()
    assert report.summary == (sections["pricing"].claims[0], sections["funding"].claims[0])
    assert report.notes[-1] == "No evidence found in the searched corpora for: Customers."
    assert report.sections[0].claims[0].date == "2026-06-01"
    assert [s.doc_id for s in report.sources] == ["price", "fund"]


class Quoting:
    """A model-like writer (no ``write_facets``) that claims one quote of the pricing chunk in every facet."""

    name = "openai"

    def __init__(self, quote: str) -> None:
        self.quote = quote

    def write(self, brief: Brief) -> Draft:
        citation = Citation(chunk_id="price#0", doc_id="price", quote=self.quote)
        return Draft(claims=(Claim(text=self.quote, citations=(citation,)),), writer="openai")


def test_a_writers_claim_about_another_company_is_removed_with_the_reason() -> None:
    lying = Quoting("Stellique charges $700 a month for its Team plan.")
    report = company_report("competitor", "Halvorix", [FacetEvidence(FACETS[1], PRICING)], lying)
    assert report.sections[0].not_found
    assert [(r.text, r.reason) for r in report.removed] == [
        ("Stellique charges $700 a month for its Team plan.", "it is not about Halvorix")
    ]


def test_extra_aspects_become_facets_of_their_own() -> None:
    facets = facets_for("competitor", ["Security certifications", " ", "EU data residency", "a", "b"])
    assert [f.title for f in facets[len(FACETS) :]] == ["Security certifications", "EU data residency", "a"]
    assert facets_for("prospect") == PROSPECT_FACETS
    assert facets[-2].ask("Halvorix") == "EU data residency of Halvorix?"
    assert facets_for("competitor", ["{odd} braces"])[-1].ask("Halvorix") == "{odd} braces of Halvorix?"


def test_a_sentence_another_facets_rollout_found_is_placed_in_the_facet_it_fits_once() -> None:
    pricing, funding, news = FACETS[1], FACETS[2], FACETS[8]
    found_by_pricing = (
        evidence(
            "mix#0",
            "Halvorix raised a $60 million Series C led by Northwind investors. "
            "Halvorix lists its Standard plan at $900 a month.",
            title="Halvorix update",
        ),
    )
    report = company_report(
        "competitor",
        "Halvorix",
        [FacetEvidence(pricing, found_by_pricing), FacetEvidence(funding, ()), FacetEvidence(news, ())],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    sections = {s.facet: [c.text for c in s.claims] for s in report.sections}
    assert sections["pricing"] == ["Halvorix lists its Standard plan at $900 a month."]
    assert sections["funding"] == ["Halvorix raised a $60 million Series C led by Northwind investors."]
    assert sections["news"] == []


def test_a_writer_without_write_facets_has_its_claims_placed_in_one_facet_each() -> None:
    facets = [FacetEvidence(FACETS[1], PRICING), FacetEvidence(FACETS[8], PRICING)]
    proposing = Quoting("Halvorix raised the Standard plan minimum to $900 a month on 1 June 2026.")
    report = company_report("competitor", "Halvorix", facets, proposing)
    sections = {s.facet: len(s.claims) for s in report.sections}
    assert sections == {"pricing": 1, "news": 0}  # both proposed it; it holds pricing's words


def test_a_sentence_that_fits_two_facets_nearly_as_well_is_stated_in_both() -> None:
    funding, customers = FACETS[2], FACETS[4]
    found = (
        evidence(
            "about#0",
            "Halvorix is backed by venture investors and serves customers in more than 60 countries. "
            "Halvorix raised a $60 million Series C in 2025.",
            title="About Halvorix",
        ),
    )
    report = company_report(
        "competitor",
        "Halvorix",
        [FacetEvidence(funding, found), FacetEvidence(customers, ())],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    sections = {s.facet: [c.text for c in s.claims] for s in report.sections}
    both = "Halvorix is backed by venture investors and serves customers in more than 60 countries."
    assert both in sections["funding"]
    assert both in sections["customers"]
    assert sections["funding"][0] == "Halvorix raised a $60 million Series C in 2025."
    assert "Halvorix raised a $60 million Series C in 2025." not in sections["customers"]


def test_a_facet_with_few_places_prefers_the_sentence_with_a_figure() -> None:
    partnerships = next(facet for facet in FACETS if facet.key == "partnerships")
    found = (
        evidence(
            "terms#0",
            "Halvorix keeps a listing fee on every Marketplace partner sale. "
            "Halvorix keeps a listing fee of 15% on every Marketplace partner sale.",
            title="Partner terms",
        ),
    )
    brief = Brief(
        focus=partnerships.ask("Halvorix"), evidence=found, subject="Halvorix", words=partnerships.words, max_claims=1
    )
    (draft,) = ExtractiveWriter(HashingEmbedder(256)).write_facets([brief])
    assert [claim.text for claim in draft.claims] == [
        "Halvorix keeps a listing fee of 15% on every Marketplace partner sale."
    ]


def test_a_facet_takes_a_documents_further_sentences_when_no_other_document_has_any() -> None:
    funding = next(facet for facet in FACETS if facet.key == "funding")
    article = evidence(
        "news#0",
        "Halvorix raised a $60 million Series C led by Northwind. "
        "Halvorix's earlier Series B of $20 million was led by Aldgate. "
        "Halvorix reached $24 million in annual recurring revenue before the round. "
        "Halvorix will spend the funding on hiring 60 engineers.",
        title="Halvorix raises $60m",
    )
    brief = Brief(focus=funding.ask("Halvorix"), evidence=(article,), subject="Halvorix", words=funding.words)
    (draft,) = ExtractiveWriter(HashingEmbedder(256)).write_facets([brief])
    assert len(draft.claims) == 4  # one document's limit (3) holds only while another document has sentences


def test_a_price_lists_five_plans_are_five_claims() -> None:
    pricing = next(facet for facet in FACETS if facet.key == "pricing")
    table = "\n".join(
        ["| Plan | Price |", "| --- | --- |"]
        + [f"| {plan} | £{price} per employee per month |" for plan, price in PLANS]
    )
    page = evidence("price#0", f"Halvorix pricing\n\n{table}\n", title="Halvorix pricing", source="halvorix-pricing.md")
    brief = Brief(focus=pricing.ask("Halvorix"), evidence=(page,), subject="Halvorix", words=pricing.words)
    (draft,) = ExtractiveWriter(HashingEmbedder(256)).write_facets([brief])
    said = " ".join(claim.text for claim in draft.claims)
    assert all(plan in said for plan, _ in PLANS)


PLANS = [("Payroll", "6.00"), ("Core HR", "4.50"), ("Rota", "2.00"), ("Pulse", "1.50"), ("Complete", "9.50")]


def test_the_summary_takes_each_sections_first_claim_that_reads_as_a_summary_line() -> None:
    from research.writing.company import summary_claim

    def claim(text: str, *, stale: bool = False) -> Claim:
        return Claim(text=text, citations=(Citation(chunk_id="c", doc_id="d", quote=text),), stale=stale)

    stale_title = claim("Price list 2025 - Kuldevagt A/S, Aarhus valid from 1 February 2025.", stale=True)
    record = claim("review_id: CS-10577; vendor: Kuldevagt A/S; stars: 4; headline: Easy labels.")
    quote = claim('"We will double the team," said the CEO.')
    line = claim("Kuldevagt A/S develops wireless temperature sensors for pharma logistics.")
    assert summary_claim([stale_title, record, quote, line]) == line
    assert summary_claim([stale_title, record]) == stale_title  # none reads as a summary line: the first


def test_a_headcount_is_stated_under_leadership_and_outranks_hiring_news() -> None:
    leadership, customers = FACETS[3], FACETS[4]
    careers = (
        evidence(
            "careers#0",
            "Halvorix has a 164-strong team in Aarhus, serving customers in 14 countries.\n\n"
            "Halvorix is hiring a Head of Engineering to lead the platform team and report to the CEO.\n\n"
            "Halvorix appointed a new VP Sales, who leads the sales team.\n\n"
            "Halvorix co-founder and CEO Ana Ruiz leads the company and its executive team.\n",
            title="Careers at Halvorix",
        ),
    )
    brief = Brief(
        focus=leadership.ask("Halvorix"),
        evidence=careers,
        subject="Halvorix",
        words=leadership.words,
        max_claims=2,
        facet="leadership",
    )
    other = Brief(focus=customers.ask("Halvorix"), evidence=(), subject="Halvorix", words=customers.words)
    lead, _ = ExtractiveWriter(HashingEmbedder(256)).write_facets([brief, other])
    assert "Halvorix has a 164-strong team in Aarhus, serving customers in 14 countries." in [
        claim.text for claim in lead.claims
    ]


def test_a_pricing_section_prefers_a_price_to_a_line_about_prices() -> None:
    pricing = FACETS[1]
    page = (
        evidence(
            "price#0",
            "Halvorix prices and plans on this pricing page are valid from 1 September 2026.\n"
            "Fleet\nEUR 13 per sensor / month\n",
            title="Halvorix pricing",
        ),
    )
    brief = Brief(
        focus=pricing.ask("Halvorix"),
        evidence=page,
        subject="Halvorix",
        words=pricing.words,
        max_claims=1,
        facet="pricing",
    )
    (draft,) = ExtractiveWriter(HashingEmbedder(256)).write_facets([brief])
    assert [claim.text for claim in draft.claims] == ["Fleet EUR 13 per sensor / month"]


def test_a_french_report_reads_its_words_without_french_stop_words() -> None:
    # "de" (of "levée de fonds" in the funding facet's French words) places nothing in funding
    funding, customers = FACETS[2], FACETS[4]
    site = (
        evidence(
            "site#0",
            "Plus de 6 000 restaurants en France et en Belgique utilisent Halvorix pour encaisser.",
            title="Halvorix",
        ),
    )
    briefs = [
        Brief(
            focus=facet.ask("Halvorix", "fr"),
            evidence=site,
            subject="Halvorix",
            words=facet.words,
            language="fr",
            max_claims=3,
        )
        for facet in (funding, customers)
    ]
    french = ExtractiveWriter(HashingEmbedder(256)).write_facets(briefs)
    assert [len(draft.claims) for draft in french] == [0, 1]


def test_a_subsidiary_or_office_set_up_is_news() -> None:
    products, news = FACETS[0], FACETS[8]
    found = (
        evidence(
            "feed#0",
            "On 15 June 2026 Halvorix set up Halvorix Mexico, a subsidiary that will sell its new software in Mexico.",
            title="Media feed",
        ),
    )
    report = company_report(
        "competitor",
        "Halvorix",
        [FacetEvidence(products, found), FacetEvidence(news, ())],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    sections = {s.facet: [c.text for c in s.claims] for s in report.sections}
    assert sections["news"] == [found[0].text]


@pytest.mark.parametrize(
    ("sentence", "facet"),
    [
        ("Halvorix launched Halvorix Strip, a single-use label for cold parcels, in September 2026.", "products"),
        ("Sygehusapotek Vestkyst awarded Halvorix a four-year contract worth DKK 9.6 million.", "customers"),
        ("More than 2,300 fleets and 48,000 vehicles in Ireland run on Halvorix every day.", "customers"),
        ("Halvorix integrates with Pennant Pensions and Ledgerwise accounting.", "partnerships"),
        ("Brindle & Oakes rates Halvorix a Strong Performer in its 2026 payroll assessment.", "reviews"),
        ("Halvorix was founded in 2016 in Wrocław by Tomasz Gąsiorek and Marta Kulesza.", "leadership"),
        ("More than 2,300 fleets and over 48,000 vehicles in Ireland and the UK run on Halvorix.", "customers"),
        ("Halvorix is the open-source search engine used by tens of thousands of teams.", "customers"),
        ("Halvorix connects to Pennant Pensions and exports payroll journals to Ledgerwise.", "partnerships"),
        ("Halvorix vend en direct et par un réseau de plus de 40 partenaires informatiques.", "partnerships"),
        ("Halvorix a supprimé 28 postes dans son agence de Lyon, surtout au service client.", "news"),
        ("Halvorix's net result for 2025 was a loss of EUR 1.4 million, its platform costs rising.", "funding"),
        ("Halvorix reported revenue of PLN 96 million for 2025 across its products and partners.", "funding"),
        ("Halvorix is a cloud WMS for distributors, 3PL operators and e-commerce warehouses.", "products"),
        ("The Málaga start-up Halvorix has raised EUR 21 million in a Series B round led by Almadraba.", "funding"),
        ("Halvorix lève 18 millions d'euros auprès de Ancrevive Capital pour ouvrir des agences.", "funding"),
        ("Halvorix is, in our view, still the most accurate probe maker on the market today.", "reviews"),
        # as three more teams wrote them (report benchmark: insurtech-claims-it, paie-interim-ch, edtech-lms-se)
        (
            "Halvorix was started in Umeå in 2015 by Elin Norberg, a chemistry teacher, and Jonas Hägglund.",
            "leadership",
        ),
        (
            "Halvorix was born in Bologna in 2017, when Davide Ruggeri met Chiara Benassi, a data scientist.",
            "leadership",
        ),
        ("More than 60 insurers and loss-adjusting firms are working their claims with Halvorix.", "customers"),
        ("Halvorix is trusted by 140 financial institutions from Bregenz to Berlin and 27 utilities.", "customers"),
        ("Plus de 380 agences calculent chaque semaine la paie de 21 000 intérimaires avec Halvorix.", "customers"),
        ("Halvorix's head office is on the Kinsale Road in Cork; its engineers work from Galway.", "leadership"),
        # as the fifth round wrote them (syndic-copropriete-qc, procurement-saas-in, vet-practice-nz)
        ("Halvorix is cloud practice management software built for veterinary clinics: bookings.", "products"),
        ("1,340 clinics across Aotearoa, Australia and the United Kingdom run their day on Halvorix.", "customers"),
        (
            "Halvorix began in 2017, when Dr Hamish Tairoa teamed up with software engineer Priya Venkataraman.",
            "leadership",
        ),
        ("Halvorix has held ISO/IEC 27001 certification since November 2025.", "technology"),
        ("Halvorix is headquartered in Christchurch, New Zealand, with a sales office in Bristol.", "leadership"),
    ],
)
def test_a_sentence_of_a_facets_own_kind_is_stated_there(sentence: str, facet: str) -> None:
    found = (evidence("mix#0", sentence, title="Halvorix news"),)
    report = company_report(
        "competitor",
        "Halvorix",
        [FacetEvidence(item, found) for item in FACETS],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    placed = [s.facet for s in report.sections if sentence in [c.text for c in s.claims]]
    assert facet in placed, placed


def every_facet_finds(*found: Evidence) -> dict[str, list[str]]:
    """Each section's claims of a Halvorix competitor report whose every facet found ``found``."""
    report = company_report(
        "competitor",
        "Halvorix",
        [FacetEvidence(item, found) for item in FACETS],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    return {s.facet: [c.text for c in s.claims] for s in report.sections}


def test_a_sentence_that_opens_with_one_of_its_products_is_a_products_claim() -> None:
    found = (
        evidence(
            "site#0",
            "Halvorix Puck is our reusable sensor. The Puck, a module, sends temperature over LTE-M to the cloud "
            "servers every five minutes and runs three years on one battery.",
            title="Halvorix",
        ),
    )
    sections = every_facet_finds(*found)
    assert found[0].text.split(". ", 1)[1] in sections["products"]


def test_a_documents_title_line_is_not_a_claim_of_a_report() -> None:
    title = "Almadraba Capital portfolio snapshot: Halvorix Revenue Technologies S.L."
    text = (
        "Portfolio snapshot: Halvorix Revenue Technologies S.L.\n"
        "Halvorix raised EUR 21 million in a Series B round in April 2026."
    )
    found = (evidence("p#0", text, title=title),)
    report = company_report(
        "competitor",
        "Halvorix Revenue Technologies S.L.",
        [FacetEvidence(item, found) for item in FACETS],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    claims = [c.text for s in report.sections for c in s.claims]
    assert claims == ["Halvorix raised EUR 21 million in a Series B round in April 2026."]


def test_a_pages_long_headline_does_not_run_into_its_first_sentence() -> None:
    title = "Warehouse management system which grows together with your business"
    text = f"{title}\nHalvorix is a cloud WMS for distributors, 3PL operators and e-commerce warehouses."
    sections = every_facet_finds(evidence("home#0", text, title=title, source="halvorix-home.html"))
    assert sections["products"] == [text.split("\n")[1]]


def test_a_careers_pages_we_are_n_is_the_headcount_and_a_review_row_is_a_review() -> None:
    careers = evidence(
        "careers#0",
        "Today we are 187 claims nerds, between Bologna, Madrid and Lisbon.",
        title="Work with us",
        source="halvorix-careers.html",
    )
    row = evidence(
        "reviews#0",
        "id: CP-4471\nproduct: Halvorix Perito\nvendor: Halvorix\nstars: 4.5\nheadline: Made by adjusters",
        title="reviews-claimpeer-export row 1",
        source="reviews-claimpeer-export.csv",
    )
    sections = every_facet_finds(careers, row)
    assert careers.text in sections["leadership"]
    assert any("stars: 4.5" in claim for claim in sections["reviews"]), sections


def test_the_prices_in_force_come_before_an_old_price_lists_and_a_tables_lines_are_no_sentences() -> None:
    old_rows = "\n".join(
        ["| Plan | Price |", "|---|---|", *(f"| {plan} | NZ${price - 20} per vet per month |" for plan, price in VET)]
    )
    new_rows = "\n".join(
        ["| Plan | Price |", "|---|---|", *(f"| {plan} | NZ${price} + GST per vet per month |" for plan, price in VET)]
    )
    old = evidence("list#0", old_rows, title="Halvorix price list 2024", date="2024-03-01", source="halvorix-2024.pdf")
    page = evidence("page#0", new_rows, title="Halvorix pricing", source="halvorix-pricing.html")
    news = evidence("news#0", "Halvorix raised NZ$28m in September 2026.", title="Halvorix news", date="2026-09-09")
    said = every_facet_finds(old, page, news)["pricing"]
    current = [claim for claim in said if "+ GST" in claim]
    assert len(current) == len(VET)
    assert said[: len(current)] == current
    assert not any(claim.count("|") >= 2 for claim in said)


VET = [("Solo", 149), ("Clinic", 89), ("Hospital", 119), ("Farm", 99), ("Equine", 109)]


def test_the_companys_own_name_is_no_facets_word() -> None:
    found = (evidence("press#0", "Halvorix Software Limited is headquartered in Christchurch, with an office there."),)
    report = company_report(
        "competitor",
        "Halvorix Software Limited",
        [FacetEvidence(item, found) for item in FACETS],
        ExtractiveWriter(HashingEmbedder(256)),
    )
    assert [s.facet for s in report.sections if s.claims] == ["leadership"]  # "Software" is no product's word


def test_a_sentence_no_facet_speaks_of_is_in_no_section() -> None:
    said = every_facet_finds(
        evidence("notes#0", "Halvorix pilot at Kilnbrook on about 2 million non-sensitive documents since January.")
    )
    assert not any(said.values()), said
