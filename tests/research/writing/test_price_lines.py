"""A price list's plan names and prices as a page writes them, a line each: "Fleet" over "EUR 13 per sensor /
month" is the claim "Fleet EUR 13 per sensor / month" of the company's own pricing page."""

from __future__ import annotations

from research.writing.amounts import price_line
from research.writing.citations import Evidence
from research.writing.company import COMPETITOR_FACETS
from research.writing.extractive import ExtractiveWriter
from research.writing.text import sentences
from research.writing.writers import Brief

PAGE = (
    "Plans and prices\nAll plans are billed yearly per active sensor.\nStarter\nEUR 9 per sensor / month\n"
    "- Up to 50 sensors\n- E-mail alarms, 7 days out of 7\nFleet\nEUR 13 per sensor / month\n- Unlimited sensors\n"
)


def test_a_list_item_ends_with_its_line_and_a_digit_is_no_initial() -> None:
    found = sentences(PAGE)
    assert "E-mail alarms, 7 days out of 7" in found
    assert "Fleet" in found
    assert "EUR 13 per sensor / month" in found
    assert sentences("Essentiel\n49 € HT par mois\n- Support 7 jours sur 7\nPro\n89 € HT par mois") == [
        "Essentiel",
        "49 € HT par mois",
        "Support 7 jours sur 7",
        "Pro",
        "89 € HT par mois",
    ]


def test_what_a_price_line_is() -> None:
    assert price_line("EUR 13 per sensor / month")
    assert price_line("49 € HT par mois")
    assert price_line("Pro €29 per vehicle / month (£25 in the UK)")
    assert not price_line("Up to 50 sensors")
    assert not price_line("The plan costs EUR 13 per sensor per month.")  # a sentence, read as sentences are


def pricing(evidence: Evidence) -> Brief:
    facet = next(facet for facet in COMPETITOR_FACETS if facet.key == "pricing")
    return Brief(focus=facet.ask("Kuldevagt A/S"), evidence=(evidence,), subject="Kuldevagt A/S", words=facet.words)


def test_a_plan_and_its_price_are_a_claim_of_the_companys_own_page() -> None:
    page = Evidence(chunk_id="k#0", doc_id="k", title="Kuldevagt pricing", source="kuldevagt-pricing.html", text=PAGE)
    brief = pricing(page)
    texts = [claim.text for claim in ExtractiveWriter().write_facets([brief])[0].claims]
    assert "Fleet EUR 13 per sensor / month" in texts
    assert "Starter EUR 9 per sensor / month" in texts
    elsewhere = Evidence(chunk_id="n#0", doc_id="n", title="Fleet news", source="n.html", text=PAGE)
    # a price list that is not the company's says nothing of it
    assert ExtractiveWriter().write_facets([pricing(elsewhere)])[0].claims == ()


def test_a_plan_card_of_four_words_is_a_price_not_a_label() -> None:
    # "Standard" over "$70/month minimum usage" is four words: a label of four words says nothing, a price does
    card = "Pricing that grows with your index\nStarter\nFree\nStandard\n$70/month minimum usage\n- Unlimited indexes\n"
    page = Evidence(
        chunk_id="h#0",
        doc_id="h",
        title="Pricing that grows with your index",
        source="halvorix-pricing.html",
        text=card,
        publisher="Halvorix, Inc; halvorix.example",
    )
    brief = Brief(
        focus=next(f for f in COMPETITOR_FACETS if f.key == "pricing").ask("Halvorix"),
        evidence=(page,),
        subject="Halvorix",
        words=next(f for f in COMPETITOR_FACETS if f.key == "pricing").words,
    )
    texts = [claim.text for claim in ExtractiveWriter().write_facets([brief])[0].claims]
    assert "Standard $70/month minimum usage" in texts
    label = Evidence(chunk_id="h#1", doc_id="h", title="", source="h.html", text="Product: Halvorix Cloud.")
    assert ExtractiveWriter().write_facets([pricing(label)])[0].claims == ()
